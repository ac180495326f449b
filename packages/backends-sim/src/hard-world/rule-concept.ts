import { readSkillRules, type AnswerFailureClass } from '../failure-classes.js';

/** What the hard world's target can get wrong in an answer: today's answer classes, and a full name cut to the surname. */
export type HardWorldHabit = AnswerFailureClass | 'truncation';

/**
 * The groups of items a concept can act on, read from the answer key: the answer's shape, and
 * which person answers are a surname and which a full name.
 */
export type ItemGroup = 'every-item' | 'number' | 'date' | 'quantity' | 'surname-gold' | 'full-name-gold' | 'name' | 'multiword-name';

/** Whether one line of a skill states a concept in a given wording. */
export type WordingMatcher = (line: string) => boolean;

/**
 * One rule concept of the hard world: an idea a skill can state, recognised by meaning (a set of
 * keyword groups), in a strong wording (full effect) or a vague one (half effect).
 */
export interface RuleConcept {
  readonly id: string;
  /** The failure class whose symptoms lead the simulated optimizer to propose this concept. */
  readonly addresses: HardWorldHabit;
  /** The latent habits it suppresses, each with probability strength × compliance. */
  readonly fixes: readonly HardWorldHabit[];
  /** A habit it makes show on the items of one group, with probability strength × compliance. */
  readonly causes?: { readonly habit: HardWorldHabit; readonly group: ItemGroup };
  /** The demo world's harmful rule that is this concept here: a line stating it counts as the concept, not as a harmful rule. */
  readonly replacesHarm?: HardWorldHabit;
  /** Strength 1: the rule stated so that it can be followed. */
  readonly statedStrongly: WordingMatcher;
  /** Strength 0.5: the rule only hinted at ("be careful with number formats"). */
  readonly statedVaguely: WordingMatcher;
  /** How the optimizer words it strongly; the first is the oracle's wording. */
  readonly strongPhrasings: readonly string[];
  readonly vaguePhrasings: readonly string[];
}

/** The strength of a strongly worded rule, and of a vaguely worded one. */
export const STRONG_WORDING = 1;
export const VAGUE_WORDING = 0.5;

/** A line that states the fix of a class in the demo world's keyword groups (so both worlds agree on a strong rule). */
export function fixesClassInDemoWorld(failureClass: AnswerFailureClass): WordingMatcher {
  return (line) => readSkillRules(line).fixes.has(failureClass);
}

/** A line that the demo world reads as the harmful rule of a class. */
export function harmsClassInDemoWorld(failureClass: AnswerFailureClass): WordingMatcher {
  return (line) => readSkillRules(line).harms.has(failureClass);
}

/** A line that matches any of these keyword groups. */
export function mentionsAny(...patterns: readonly RegExp[]): WordingMatcher {
  return (line) => patterns.some((pattern) => pattern.test(line));
}
