import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Answer tags written exactly: fixes `malformed-tag`. */
export const WELL_FORMED_TAGS: RuleConcept = {
  id: 'well-formed-tags',
  addresses: 'malformed-tag',
  fixes: ['malformed-tag'],
  statedStrongly: fixesClassInDemoWorld('malformed-tag'),
  statedVaguely: mentionsAny(/\b(?:careful|check)\b[^.;\n]{0,30}\b(?:markup|formatting)\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['malformed-tag'],
  vaguePhrasings: ['Be careful with the answer markup.', 'Check your formatting before you finish.'],
};
