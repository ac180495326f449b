import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Dates with the month written out: fixes `date-format`. */
export const WRITTEN_DATES: RuleConcept = {
  id: 'written-dates',
  addresses: 'date-format',
  fixes: ['date-format'],
  statedStrongly: fixesClassInDemoWorld('date-format'),
  statedVaguely: mentionsAny(/\bdates?\b[^.;\n]{0,20}\bformats?\b/i, /\b(?:careful|attention)\b[^.;\n]{0,30}\bdates?\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['date-format'],
  vaguePhrasings: ['Be careful with date formats.', 'Pay attention to how dates are written.'],
};
