import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/**
 * People by their surname alone. It fixes `full-name` where the gold is a surname, and cuts a full
 * name to the surname where the question asks for the full name: a rule that helps one group and
 * hurts another.
 */
export const SURNAME_ONLY: RuleConcept = {
  id: 'surname-only',
  addresses: 'full-name',
  fixes: ['full-name'],
  causes: { habit: 'truncation', group: 'full-name-gold' },
  statedStrongly: fixesClassInDemoWorld('full-name'),
  statedVaguely: mentionsAny(/\b(?:careful|attention)\b[^.;\n]{0,30}\bname people\b/i, /\bkeep\b[^.;\n]{0,15}\bnames? short\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['full-name'],
  vaguePhrasings: ['Be careful with how you name people.', "Keep people's names short."],
};
