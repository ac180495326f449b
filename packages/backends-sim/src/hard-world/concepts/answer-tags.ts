import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Always end with the answer in answer tags: fixes `missing-tag`. */
export const ANSWER_TAGS: RuleConcept = {
  id: 'answer-tags',
  addresses: 'missing-tag',
  fixes: ['missing-tag'],
  statedStrongly: fixesClassInDemoWorld('missing-tag'),
  statedVaguely: mentionsAny(/\bremember\b[^.;\n]{0,30}\bformat\b/i, /\bkeep in mind\b[^.;\n]{0,30}\bend\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['missing-tag'],
  vaguePhrasings: ['Remember the expected answer format.', 'Keep in mind how a reply is expected to end.'],
};
