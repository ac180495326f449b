import { normaliseAnswer } from './answer-normalisation.js';

/**
 * The options of a multiple-choice question: texts in order (labelled A, B, C, …) or a record from
 * label to text (`{A: "two", B: "three"}`). Labels are single letters; case does not matter.
 */
export type Choices = readonly string[] | Readonly<Record<string, string>>;

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** The upper-case labels and texts of `choices`, in order. */
export function choiceEntries(choices: Choices): Array<{ label: string; text: string }> {
  if (Array.isArray(choices)) {
    const texts = choices as readonly string[];
    if (texts.length > LETTERS.length) throw new RangeError(`at most ${LETTERS.length} choices are supported`);
    return texts.map((text, index) => ({ label: LETTERS[index] ?? '', text }));
  }
  return Object.entries(choices as Readonly<Record<string, string>>).map(([label, text]) => {
    if (!/^[A-Za-z]$/.test(label)) throw new RangeError(`choice labels are single letters, got "${label}"`);
    return { label: label.toUpperCase(), text };
  });
}

// Markdown emphasis and code marks around a label ("**B**", "`B`") carry no meaning for the answer.
function withoutMarkdownMarks(text: string): string {
  return text.replace(/[*`]/g, '');
}

/**
 * A bare letter followed by a lower-case word is usually English, not a label: "a lot", "I think".
 * Upper-case "A" is kept ("A because …") since in a multiple-choice reply it is far more often the
 * label; a bracket or punctuation after the letter ("a)", "i.") always marks a label.
 */
function looksLikeWord(letter: string, rest: string): boolean {
  if (!/^\s+\p{Ll}/u.test(rest)) return false;
  return letter === letter.toLowerCase() || letter === 'I';
}

/** The whole reply is just a label: "B", "b", "B.", "(B)", "(b)", "[B]", "B)", "B:", "**B**". */
function labelOnly(text: string): string | undefined {
  const match = /^[([]?\s*([A-Za-z])\s*[)\]]?\s*[.:,]?$/.exec(
    withoutMarkdownMarks(text)
      .trim()
      .replace(/^["']|["']$/g, ''),
  );
  return match?.[1]?.toUpperCase();
}

/** The reply is one choice's text (case, spacing and a trailing period aside, then SQuAD-normalised). */
function choiceByText(text: string, entries: ReadonlyArray<{ label: string; text: string }>): string | undefined {
  const loose = (value: string): string => value.trim().replace(/\s+/g, ' ').replace(/\.$/, '').toLowerCase();
  const unique = (matches: ReadonlyArray<{ label: string }>): string | undefined => (matches.length === 1 ? matches[0]?.label : undefined);
  const target = loose(text);
  const byLooseText = unique(entries.filter((entry) => loose(entry.text) === target));
  if (byLooseText !== undefined) return byLooseText;
  const normalised = normaliseAnswer(text);
  if (normalised === '') return undefined;
  return unique(entries.filter((entry) => normaliseAnswer(entry.text) === normalised));
}

/**
 * The last label after an answer phrase: "answer: B", "The answer is (B)", "final answer = b"; only
 * when there is none, the last "option C" / "choice C", since replies also discuss the wrong options
 * ("The answer is C. Option A fails because …").
 */
function labelAfterAnswerPhrase(text: string, labels: ReadonlySet<string>): string | undefined {
  const cleaned = withoutMarkdownMarks(text);
  const lastLabelAfter = (keyword: string): string | undefined => {
    const phrase = new RegExp(`\\b(?:${keyword})\\b\\s*(?:is\\s*)?[:=-]?\\s*(?:option\\s+|choice\\s+)?[([]?([A-Za-z])(?![A-Za-z0-9])([)\\]]?)`, 'gi');
    let found: string | undefined;
    for (const match of cleaned.matchAll(phrase)) {
      const letter = match[1] ?? '';
      const bracketed = (match[2] ?? '') !== '';
      const rest = cleaned.slice((match.index ?? 0) + match[0].length);
      if (!bracketed && looksLikeWord(letter, rest)) continue;
      if (labels.has(letter.toUpperCase())) found = letter.toUpperCase();
    }
    return found;
  };
  return lastLabelAfter('answer') ?? lastLabelAfter('option|choice');
}

/** The reply starts with a label: "B. because …", "(B) because …", "B because …". */
function leadingLabel(text: string): string | undefined {
  const cleaned = withoutMarkdownMarks(text).trimStart();
  const match = /^[([]?([A-Za-z])(?:([)\]])|[.:,](?=\s|$)|(?=\s))/.exec(cleaned);
  if (match === null) return undefined;
  const letter = match[1] ?? '';
  if (match[2] === undefined && looksLikeWord(letter, cleaned.slice(match[0].length))) return undefined;
  return letter.toUpperCase();
}

/**
 * The label of the choice a reply picks, upper-case, or `null` when it names no valid choice.
 * Tried in order, the first valid label winning:
 *   1. the whole reply is a label: "B", "b", "B.", "(B)", "(b)", "[B]", "**B**";
 *   2. the whole reply is one choice's text ("two" when B is "two");
 *   3. the last "answer/option/choice" phrase: "answer: B", "The answer is (B)";
 *   4. the reply starts with a label: "B. because …", "(B) because …", "B because …";
 *   5. rules 1 and 2 on the last non-empty line (a label after the reasoning).
 * A letter that is not one of the labels is ignored. Unlike the original (which read "(b)" as the
 * invalid label "(B"), brackets and lower case are accepted everywhere.
 */
export function extractChoiceLetter(text: string, choices: Choices): string | null {
  const entries = choiceEntries(choices);
  const labels = new Set(entries.map((entry) => entry.label));
  const valid = (label: string | undefined): label is string => label !== undefined && labels.has(label);
  const reply = text.trim();
  if (reply === '') return null;

  const candidates = [() => labelOnly(reply), () => choiceByText(reply, entries), () => labelAfterAnswerPhrase(reply, labels), () => leadingLabel(reply)];
  const lastLine = reply
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .at(-1);
  if (lastLine !== undefined && lastLine !== reply) {
    candidates.push(
      () => labelOnly(lastLine),
      () => choiceByText(lastLine, entries),
    );
  }
  for (const candidate of candidates) {
    const label = candidate();
    if (valid(label)) return label;
  }
  return null;
}
