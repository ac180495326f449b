import { harmsClassInDemoWorld, mentionsAny, type RuleConcept } from '../rule-concept.js';

/**
 * People by their full name, the opposite of `surname-only`: it stops a full name from being cut
 * to the surname, and writes a full name where the gold is only the surname. The demo world's
 * harmful "full name" rule is this concept here.
 */
export const FULL_NAMES: RuleConcept = {
  id: 'full-names',
  addresses: 'truncation',
  fixes: ['truncation'],
  causes: { habit: 'full-name', group: 'surname-gold' },
  replacesHarm: 'full-name',
  statedStrongly: harmsClassInDemoWorld('full-name'),
  statedVaguely: mentionsAny(/\bfully identif(?:y|ied)\b/i, /\bidentify people completely\b/i),
  strongPhrasings: [
    "Always give a person's full name (first and last name).",
    'When the answer is a person, write the full name: first and last name.',
    'Name people in full, with their first and last names.',
  ],
  vaguePhrasings: ['Make sure people are fully identified.', 'Identify people completely.'],
};
