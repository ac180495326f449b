import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Quantities without their unit: fixes `unit-appended`. */
export const BARE_NUMBERS: RuleConcept = {
  id: 'bare-numbers',
  addresses: 'unit-appended',
  fixes: ['unit-appended'],
  statedStrongly: fixesClassInDemoWorld('unit-appended'),
  statedVaguely: mentionsAny(/\b(?:careful|attention)\b[^.;\n]{0,30}\b(?:quantit(?:y|ies)|measurements?)\b/i),
  strongPhrasings: GOOD_RULE_PHRASINGS['unit-appended'],
  vaguePhrasings: ['Be careful when answering with quantities.', 'Pay attention to measurements in answers.'],
};
