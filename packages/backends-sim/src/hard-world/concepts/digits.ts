import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Numbers in digits: fixes `number-words`. */
export const DIGITS: RuleConcept = {
  id: 'digits',
  addresses: 'number-words',
  fixes: ['number-words'],
  statedStrongly: fixesClassInDemoWorld('number-words'),
  statedVaguely: mentionsAny(/\bnumbers?\b[^.;\n]{0,20}\bformats?\b/i, /\b(?:careful|attention)\b[^.;\n]{0,30}\bnumbers?\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['number-words'],
  vaguePhrasings: ['Be careful with number formats.', 'Pay attention to how numbers are written.'],
};
