import { characterBound } from '../tasks/character-bound.js';

/** What one rule check found: whether it passed, and a note when its argument could not be used. */
export interface CheckOutcome {
  passed: boolean;
  problem?: string;
}

type RuleOperator = (response: string, argument: unknown, toolsCalled: readonly string[]) => CheckOutcome;

const REFUSAL_OPENINGS = [
  'cannot complete',
  'i cannot',
  "i can't",
  "i'm unable",
  'i am unable',
  'unable to complete',
  "sorry, i can't",
  'sorry, i cannot',
  'no can do',
];
/** A refusal that long explains itself (what was searched, why it failed): it is an answer. */
const EXPLAINED_REFUSAL_LENGTH = 600;
const REFUSAL_WINDOW = 160;

function escapeRegex(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Python counts code points, and so do the bounds hand-written task files carry. */
function codePointLength(text: string): number {
  let length = 0;
  for (const _ of text) length += 1;
  return length;
}

/** Close to Unicode full case folding (`ß` and `SS` agree), which plain lower-casing is not. */
function caseFold(text: string): string {
  return text.toUpperCase().toLowerCase();
}

function lines(text: string): string[] {
  return text.split(/\r?\n/);
}

function textArgument(argument: unknown): string | undefined {
  if (typeof argument === 'number') return String(argument);
  if (typeof argument !== 'string' || argument.trim() === '') return undefined;
  return argument;
}

const NEEDS_TEXT: CheckOutcome = { passed: false, problem: 'needs a non-empty arg' };

/**
 * Mined rules are written for Python's `re`, whose leading inline flags (`(?i)`) JavaScript only
 * takes as RegExp flags.
 */
export function compileRulePattern(pattern: string): RegExp {
  const inline = /^\(\?([ims]+)\)/.exec(pattern);
  if (inline === null) return new RegExp(pattern);
  return new RegExp(pattern.slice(inline[0].length), [...new Set(inline[1])].join(''));
}

function sectionPresent(response: string, argument: unknown): CheckOutcome {
  const name = textArgument(argument);
  if (name === undefined) return NEEDS_TEXT;
  const escaped = escapeRegex(name.trim());
  const heading = new RegExp(`^ {0,3}#{1,6}\\s*.*?${escaped}\\s*$`, 'iu');
  const bold = new RegExp(`^\\s*\\*\\*.*?${escaped}.*?\\*\\*:?\\s*$`, 'iu');
  const labelled = new RegExp(`^\\s*${escaped}\\s*:`, 'iu');
  return { passed: lines(response).some((line) => heading.test(line) || bold.test(line) || labelled.test(line)) };
}

const ATX_HEADING = /^ {0,3}#{1,6}(?:[ \t]+(.*))?$/u;

function sectionContains(response: string, argument: unknown): CheckOutcome {
  const name = textArgument(argument);
  if (name === undefined) return NEEDS_TEXT;
  const wanted = name.trim();
  const folded = caseFold(wanted);
  return {
    passed: lines(response).some((line) => {
      const match = ATX_HEADING.exec(line);
      if (match === null) return false;
      const headingText = match[1] ?? '';
      return headingText.includes(wanted) || caseFold(headingText).includes(folded);
    }),
  };
}

function regex(response: string, argument: unknown): CheckOutcome {
  const pattern = textArgument(argument);
  if (pattern === undefined) return NEEDS_TEXT;
  try {
    return { passed: compileRulePattern(pattern).test(response) };
  } catch (error) {
    return { passed: false, problem: `invalid regex (${error instanceof Error ? error.message : String(error)})` };
  }
}

function characterCount(compare: (length: number, bound: number) => boolean): RuleOperator {
  return (response, argument) => {
    const bound = characterBound(argument);
    if (bound === undefined || bound < 0) return { passed: false, problem: 'needs a non-negative integer arg' };
    return { passed: compare(codePointLength(response), bound) };
  };
}

function contains(response: string, argument: unknown): CheckOutcome {
  const text = textArgument(argument);
  if (text === undefined) return NEEDS_TEXT;
  return { passed: response.toLowerCase().includes(text.toLowerCase()) };
}

function notContains(response: string, argument: unknown): CheckOutcome {
  const found = contains(response, argument);
  return found.problem === undefined ? { passed: !found.passed } : found;
}

const LEADING_MARKUP = /^(?:[>\-*_#\s]|\d+[.)])*/u;

/** Fails only a bare refusal: an empty answer, or one that opens by declining and says little more. */
function noRefusal(response: string): CheckOutcome {
  if (response.trim() === '') return { passed: false };
  const content = response.replace(LEADING_MARKUP, '');
  // A typographic apostrophe is the same refusal as a straight one.
  const opening = Array.from(content)
    .slice(0, REFUSAL_WINDOW)
    .join('')
    .toLowerCase()
    .replace(/\u2019/g, "'");
  const refuses = REFUSAL_OPENINGS.some((phrase) => opening.startsWith(phrase));
  return { passed: !(refuses && codePointLength(content) < EXPLAINED_REFUSAL_LENGTH) };
}

/**
 * Passes only on a tool the replay really called. The original also passed on a `TOOL_CALL: name`
 * line in the answer's text (spec §9 item 13), which an optimizer satisfies by telling the skill to
 * print that line; the text is not read here at all.
 */
function toolCalled(_response: string, argument: unknown, toolsCalled: readonly string[]): CheckOutcome {
  const name = textArgument(argument);
  if (name === undefined) return NEEDS_TEXT;
  const wanted = name.trim().toLowerCase();
  return { passed: toolsCalled.some((tool) => tool.toLowerCase() === wanted) };
}

const OPERATORS = {
  section_present: sectionPresent,
  section_contains: sectionContains,
  regex,
  max_chars: characterCount((length, bound) => length <= bound),
  min_chars: characterCount((length, bound) => length >= bound),
  contains,
  not_contains: notContains,
  no_refusal: noRefusal,
  tool_called: toolCalled,
} as const satisfies Record<string, RuleOperator>;

export type RuleOperatorName = keyof typeof OPERATORS;
export const RULE_OPERATORS = Object.keys(OPERATORS) as readonly RuleOperatorName[];
/** Operators that look only at an answer's form, never at whether it is right. */
export const SHAPE_OPERATORS: readonly RuleOperatorName[] = ['section_present', 'section_contains', 'max_chars', 'min_chars'];
/** Operators whose argument is text that must not be blank. */
export const TEXT_ARGUMENT_OPERATORS: readonly RuleOperatorName[] = ['regex', 'section_present', 'section_contains', 'contains', 'not_contains', 'tool_called'];

export function isRuleOperator(op: unknown): op is RuleOperatorName {
  return typeof op === 'string' && Object.hasOwn(OPERATORS, op);
}

export function runRuleOperator(op: RuleOperatorName, response: string, argument: unknown, toolsCalled: readonly string[]): CheckOutcome {
  return OPERATORS[op](response, argument, toolsCalled);
}
