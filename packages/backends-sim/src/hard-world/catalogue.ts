import { ANSWER_ONLY } from './concepts/answer-only.js';
import { ANSWER_TAGS } from './concepts/answer-tags.js';
import { BARE_NUMBERS } from './concepts/bare-numbers.js';
import { DIGITS } from './concepts/digits.js';
import { FULL_NAMES } from './concepts/full-names.js';
import { SURNAME_ONLY } from './concepts/surname-only.js';
import { WELL_FORMED_TAGS } from './concepts/well-formed-tags.js';
import { WRITTEN_DATES } from './concepts/written-dates.js';
import type { RuleConcept } from './rule-concept.js';

/** The oracle searches every subset of a catalogue, so one may hold at most this many concepts (2^16 subsets). */
export const MAX_CATALOGUE_SIZE = 16;

/** The hard world's rule concepts: the seven fixes of the demo's answer classes, and the full-name rule that conflicts with one of them. */
export const HARD_WORLD_CATALOGUE: readonly RuleConcept[] = [
  ANSWER_ONLY,
  ANSWER_TAGS,
  WELL_FORMED_TAGS,
  DIGITS,
  WRITTEN_DATES,
  BARE_NUMBERS,
  SURNAME_ONLY,
  FULL_NAMES,
];
