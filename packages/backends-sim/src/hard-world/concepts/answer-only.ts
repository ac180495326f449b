import { GOOD_RULE_PHRASINGS } from '../../failure-classes.js';
import { fixesClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/** Only the answer inside the tag: fixes `verbosity`. */
export const ANSWER_ONLY: RuleConcept = {
  id: 'answer-only',
  addresses: 'verbosity',
  fixes: ['verbosity'],
  statedStrongly: fixesClassInDemoWorld('verbosity'),
  statedVaguely: mentionsAny(
    /\b(?:keep|make)\b[^.;\n]{0,10}\b(?:answers?|replies|reply|responses?)\b[^.;\n]{0,10}\b(?:short|brief|concise)\b/i,
    /\bbe (?:concise|brief|succinct)\b/i,
    /\bwordy\b/i,
  ),
  strongPhrasings: GOOD_RULE_PHRASINGS.verbosity,
  vaguePhrasings: ['Keep your answers short.', 'Be concise when you answer.', 'Avoid wordy answers.'],
};
