import { normalizeAnswer } from '../text.js';

/**
 * A rule about one question ("When the question is "…", answer "…"."): it fixes that one item and
 * nothing else, and still takes its share of the instruction budget.
 */
export interface OverSpecificRule {
  /** The question it names, SQuAD-normalised (how items are matched). */
  questionKey: string;
  /** The answer it dictates; absent when it says to answer as the reference does. */
  answer?: string;
}

const OVER_SPECIFIC_RULE = /\bwhen the question is\s*["“]([^"”]+)["”]\s*[,:;]?\s*(?:answer|reply|respond)\b(.*)$/i;
const QUOTED = /["“]([^"”]+)["”]/;

/** The over-specific rule a line of a skill states, if it states one. */
export function readOverSpecificRule(line: string): OverSpecificRule | undefined {
  const match = OVER_SPECIFIC_RULE.exec(line);
  if (!match) return undefined;
  const questionKey = normalizeAnswer(match[1] as string);
  if (questionKey === '') return undefined;
  const rest = (match[2] as string).trim();
  const quoted = QUOTED.exec(rest)?.[1];
  if (quoted !== undefined) return { questionKey, answer: quoted.trim() };
  if (/\breference\b/i.test(rest)) return { questionKey };
  const plain = rest
    .replace(/^with\b/i, '')
    .replace(/[.\s]+$/, '')
    .trim();
  return plain === '' ? { questionKey } : { questionKey, answer: plain };
}

/** How the simulated optimizer words an over-specific rule, from a failed trajectory's question and reference. */
export function overSpecificRuleFor(question: string, reference: string | undefined): string {
  const quotedQuestion = question.replace(/["“”]/g, "'").trim();
  return reference === undefined || reference.trim() === ''
    ? `When the question is "${quotedQuestion}", answer it exactly as the reference answer.`
    : `When the question is "${quotedQuestion}", answer "${reference.replace(/["“”]/g, "'").trim()}".`;
}

/** Whether following the rule gives an answer the item's references accept. */
export function overSpecificRuleIsRight(rule: OverSpecificRule, references: readonly string[]): boolean {
  if (rule.answer === undefined) return true;
  const answer = normalizeAnswer(rule.answer);
  return references.some((reference) => normalizeAnswer(reference) === answer);
}
