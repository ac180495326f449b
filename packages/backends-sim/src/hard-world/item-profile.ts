import { PERSON_CUES, type AnswerKeyEntry, type AnswerShape } from '../answer-key.js';
import { parseWrittenDate } from '../dates.js';
import { classesForShape, DEFAULT_TENDENCY_RATES } from '../failure-classes.js';
import { unitHash } from '../hashing.js';
import { shapeHabit } from '../target.js';
import { normalizeAnswer } from '../text.js';
import type { HardWorldSettings } from './hard-world-settings.js';
import type { HardWorldHabit, ItemGroup } from './rule-concept.js';

/** How often an item carries each latent habit: the demo world's rates, and as often a full name cut to the surname. */
export const HARD_WORLD_TENDENCY_RATES: Readonly<Record<HardWorldHabit, number>> = {
  verbosity: DEFAULT_TENDENCY_RATES.verbosity,
  'missing-tag': DEFAULT_TENDENCY_RATES['missing-tag'],
  'malformed-tag': DEFAULT_TENDENCY_RATES['malformed-tag'],
  'number-words': DEFAULT_TENDENCY_RATES['number-words'],
  'date-format': DEFAULT_TENDENCY_RATES['date-format'],
  'unit-appended': DEFAULT_TENDENCY_RATES['unit-appended'],
  'full-name': DEFAULT_TENDENCY_RATES['full-name'],
  truncation: DEFAULT_TENDENCY_RATES['full-name'],
};

/** One item as the hard world sees it: fixed per seed and item, whatever the skill. */
export interface ItemProfile {
  /** The SQuAD-normalised question: how items, skills' over-specific rules and draws name it. */
  readonly key: string;
  readonly entry: AnswerKeyEntry;
  readonly groups: ReadonlySet<ItemGroup>;
  /** The habits the item has: each shows unless a rule suppresses it. */
  readonly latentHabits: readonly HardWorldHabit[];
  /** Every habit that would make this item's answer wrong if it showed. */
  readonly showable: ReadonlySet<HardWorldHabit>;
  /** The model does not know the answer: wrong under every skill. */
  readonly knowledgeGap: boolean;
  /** A selection-split item whose label disagrees with the truth: its observed score is inverted. */
  readonly mislabelled: boolean;
}

const SHAPE_GROUPS: Readonly<Record<AnswerShape, ItemGroup>> = {
  number: 'number',
  date: 'date',
  quantity: 'quantity',
  person_surname: 'surname-gold',
  name: 'name',
  multiword_name: 'multiword-name',
};

const FULL_NAME_QUESTION = /\bfull name\b|\b(?:first and last|given and family) names?\b/i;

/** A multi-word gold that names a person: the question asks who, or for a full name. */
function hasFullNameGold(entry: Pick<AnswerKeyEntry, 'gold' | 'question' | 'shape'>): boolean {
  return entry.shape === 'multiword_name' && /\s/.test(entry.gold.trim()) && (FULL_NAME_QUESTION.test(entry.question) || PERSON_CUES.test(entry.question));
}

/** The answer a cut leaves: a full name's surname, a date's year, otherwise the first word. */
export function truncatedAnswer(answer: string, fullNameGold: boolean): string {
  const words = answer.trim().split(/\s+/);
  if (fullNameGold) return words[words.length - 1] ?? answer;
  const date = parseWrittenDate(answer);
  return date !== undefined ? String(date.year) : (words[0] ?? answer);
}

function accepted(entry: AnswerKeyEntry, answer: string): boolean {
  const normalized = normalizeAnswer(answer);
  return entry.references.some((reference) => normalizeAnswer(reference) === normalized);
}

/** Whether a habit, shown on the gold, changes this item's score (a full name the references accept does not). */
function changesScore(habit: HardWorldHabit, entry: AnswerKeyEntry, fullNameGold: boolean, seed: number): boolean {
  switch (habit) {
    case 'verbosity':
    case 'missing-tag':
    case 'malformed-tag':
      return true;
    case 'truncation':
      return !accepted(entry, truncatedAnswer(entry.gold, fullNameGold));
    default:
      return shapeHabit(habit, entry.gold, entry, [seed, 'changes-score', entry.normalizedQuestion]) !== undefined;
  }
}

/** Builds the profile of one answer-key entry; `selectionKeys` are the selection split's items (label noise touches only them). */
export function profileItem(
  settings: Pick<HardWorldSettings, 'seed' | 'knowledgeGapRate' | 'labelNoiseRate'>,
  tendencyRates: Readonly<Record<HardWorldHabit, number>>,
  entry: AnswerKeyEntry,
  selectionKeys: ReadonlySet<string>,
): ItemProfile {
  const key = entry.normalizedQuestion;
  const fullNameGold = hasFullNameGold(entry);
  const groups = new Set<ItemGroup>(['every-item', SHAPE_GROUPS[entry.shape]]);
  if (fullNameGold) groups.add('full-name-gold');
  const shapeClasses: HardWorldHabit[] = classesForShape(entry.shape) as HardWorldHabit[];
  const latentCandidates: HardWorldHabit[] = fullNameGold ? [...shapeClasses, 'truncation'] : shapeClasses;
  const cuttable = entry.shape === 'multiword_name' || entry.shape === 'date';
  const possible: HardWorldHabit[] = cuttable && !fullNameGold ? [...shapeClasses, 'truncation'] : latentCandidates;
  const showable = new Set(possible.filter((habit) => changesScore(habit, entry, fullNameGold, settings.seed)));
  const latentHabits = latentCandidates.filter((habit) => showable.has(habit) && unitHash(settings.seed, 'tendency', key, habit) < tendencyRates[habit]);
  return {
    key,
    entry,
    groups,
    latentHabits,
    showable,
    knowledgeGap: unitHash(settings.seed, 'knowledge-gap', key) < settings.knowledgeGapRate,
    mislabelled: selectionKeys.has(key) && unitHash(settings.seed, 'mislabelled', key) < settings.labelNoiseRate,
  };
}
