/**
 * The OfficeQA scorer: the final answer is the FIRST `<answer>…</answer>` of the reply (else its
 * last non-empty line), compared with the gold answer after OfficeQA's normalisation. `hard` =
 * exact match, `soft` = token F1. No numeric tolerance and no unit scaling, as in the original:
 * "$1,234.5 million" equals "1234.5", but "12.3 %" does not equal "12.3%".
 */

export type OfficeQaAnswerSource = 'tag' | 'last-line' | 'none';

// Every ASCII punctuation character but the three OfficeQA keeps: `.`, `-` and `%`.
const DROPPED_PUNCTUATION = /[!"#$&'()*+,/:;<=>?@[\\\]^_`{|}~]/g;
// Whole words only. JavaScript's `\b` is ASCII-only; these lookarounds are Unicode-aware like Python's.
const SCALE_AND_CURRENCY_WORDS = /(?<![\p{L}\p{N}_])(?:millions?|billions?|dollars?|nominal)(?![\p{L}\p{N}_])/gu;

/**
 * OfficeQA normalisation: lower-case, trim, drop commas, drop every other ASCII punctuation
 * character except `.`, `-` and `%`, remove the whole words million(s), billion(s), dollar(s) and
 * nominal, collapse whitespace. Digits, letters and non-ASCII characters (a Unicode minus sign)
 * are kept.
 */
export function normaliseOfficeQaAnswer(text: string): string {
  return text
    .toLowerCase()
    .trim()
    .replace(/,/g, '')
    .replace(DROPPED_PUNCTUATION, '')
    .replace(SCALE_AND_CURRENCY_WORDS, ' ')
    .split(/\s+/u)
    .filter((token) => token !== '')
    .join(' ');
}

function tokensOf(text: string): string[] {
  const normalised = normaliseOfficeQaAnswer(text);
  return normalised === '' ? [] : normalised.split(' ');
}

/** 1 when the normalised texts are equal. A blank prediction (no answer at all) never matches. */
export function officeQaExactMatch(prediction: string, reference: string): 0 | 1 {
  if (prediction.trim() === '') return 0;
  return normaliseOfficeQaAnswer(prediction) === normaliseOfficeQaAnswer(reference) ? 1 : 0;
}

/**
 * Token F1 over the normalised texts (multiset overlap). Both without tokens: 1; one without: 0.
 * A blank prediction scores 0.
 */
export function officeQaTokenF1(prediction: string, reference: string): number {
  if (prediction.trim() === '') return 0;
  const predicted = tokensOf(prediction);
  const gold = tokensOf(reference);
  if (predicted.length === 0 || gold.length === 0) return predicted.length === gold.length ? 1 : 0;
  const counts = new Map<string, number>();
  for (const token of gold) counts.set(token, (counts.get(token) ?? 0) + 1);
  let common = 0;
  for (const token of predicted) {
    const left = counts.get(token) ?? 0;
    if (left > 0) {
      common += 1;
      counts.set(token, left - 1);
    }
  }
  if (common === 0) return 0;
  const precision = common / predicted.length;
  const recall = common / gold.length;
  return (2 * precision * recall) / (precision + recall);
}

/** The final answer of a reply: the first complete `<answer>` pair (any case, may span lines), else the last non-empty line. */
export function extractOfficeQaAnswer(reply: string): { answer: string; source: OfficeQaAnswerSource } {
  const tagged = /<answer>([\s\S]*?)<\/answer>/i.exec(reply);
  if (tagged) return { answer: (tagged[1] ?? '').trim(), source: 'tag' };
  const lines = reply
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const last = lines[lines.length - 1];
  return last === undefined ? { answer: '', source: 'none' } : { answer: last, source: 'last-line' };
}

export interface OfficeQaScore {
  prediction: string;
  source: OfficeQaAnswerSource;
  em: 0 | 1;
  f1: number;
  hard: 0 | 1;
  soft: number;
  /** Why the answer did not match, in neutral words, when it did not. */
  failureReason?: string;
}

/** The numbers written in a text, as values (commas and currency signs ignored). */
function numbersIn(text: string): number[] {
  return [...text.replace(/,/g, '').matchAll(/[-\u2212]?\d+(?:\.\d+)?/g)].map((match) => Number(match[0].replace('\u2212', '-')));
}

function describeNumericMismatch(prediction: string, reference: string): string | undefined {
  const predicted = numbersIn(prediction);
  const gold = numbersIn(reference);
  if (predicted.length !== 1 || gold.length !== 1) return undefined;
  const [p, g] = [predicted[0] as number, gold[0] as number];
  if (p === g)
    return 'the number is right, but it is written differently from the reference (the score compares text after normalisation; only commas, $ and the words million, billion, dollars are ignored)';
  if (g !== 0) {
    const ratio = Math.abs(p / g);
    for (const [factor, words] of [
      [1000, 'a thousand'],
      [1_000_000, 'a million'],
      [100, 'a hundred (a fraction given as a percentage, or the reverse?)'],
    ] as const) {
      if (Math.abs(ratio - factor) / factor < 1e-9 || Math.abs(ratio - 1 / factor) * factor < 1e-9)
        return `the number is off by a factor of ${words}: check the table's unit`;
    }
    if (Math.sign(p) === -Math.sign(g) && Math.abs(p) === Math.abs(g)) return 'the number has the wrong sign';
    if (Math.abs(p - g) / Math.abs(g) < 0.01)
      return 'the number is close to the reference but not equal (rounding, or a neighbouring figure?); the score needs the exact figure';
  }
  return undefined;
}

const NUMBER_WORD =
  /\b(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion)\b/i;
const MONTH_NAME_DATE = /\b(?:january|february|march|april|may|june|july|august|september|october|november|december)\s+\d{1,2},?\s+\d{4}\b/i;
const NUMERIC_DATE = /\b\d{4}-\d{1,2}-\d{1,2}\b|\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/;

/** A token with one final period dropped ("okafor." reads as "okafor" when explaining a failure, never when scoring). */
function withoutFinalPeriod(token: string): string {
  return token.endsWith('.') ? token.slice(0, -1) : token;
}

/** Why a prediction failed, in words the optimizer can act on. */
export function diagnoseOfficeQaMismatch(reply: string, prediction: string, source: OfficeQaAnswerSource, reference: string): string {
  if (source === 'none') return 'the reply holds no answer at all';
  const reasons: string[] = [];
  if (source === 'last-line') {
    reasons.push(
      /<\s*\/?\s*answer\b|\[\s*\/?\s*answer\s*\]/i.test(reply)
        ? 'the <answer> tag is malformed or not closed, so the last line of the reply was scored instead'
        : 'no <answer> tag, so the last line of the reply was scored instead',
    );
  }
  if (prediction.trim() === '') {
    reasons.push('the <answer> tag is empty');
    return reasons.join('; ');
  }
  const predicted = normaliseOfficeQaAnswer(prediction);
  const gold = normaliseOfficeQaAnswer(reference);
  const goldTokens = gold === '' ? [] : gold.split(' ');
  const predictedTokens = predicted === '' ? [] : predicted.split(' ');
  if (predicted.replace(/\s/g, '') === gold.replace(/\s/g, '')) {
    reasons.push(`the answer differs from the reference only in spacing (normalised "${predicted}" vs "${gold}")`);
  } else if (goldTokens.length > 0 && goldTokens.every((token) => predictedTokens.map(withoutFinalPeriod).includes(withoutFinalPeriod(token)))) {
    const extra = predictedTokens.length - goldTokens.length;
    reasons.push(`the answer holds the reference plus ${extra} extra word${extra === 1 ? '' : 's'}; put only the value inside the tag`);
  } else if (/\d/.test(reference) && !/\d/.test(prediction) && NUMBER_WORD.test(prediction)) {
    reasons.push('expected digits, but the number is written in words');
  } else if (MONTH_NAME_DATE.test(reference) && NUMERIC_DATE.test(prediction)) {
    reasons.push('a date in a different format from the reference, which names the month (like "March 3, 1977")');
  } else {
    const numeric = describeNumericMismatch(prediction, reference);
    if (numeric !== undefined) reasons.push(numeric);
    else
      reasons.push(
        officeQaTokenF1(prediction, reference) > 0 ? 'a different answer that only partly overlaps the reference' : 'a different answer from the reference',
      );
  }
  return reasons.join('; ');
}

/** Scores one final reply against the gold answer. */
export function scoreOfficeQaReply(reply: string, reference: string): OfficeQaScore {
  const { answer: prediction, source } = extractOfficeQaAnswer(reply);
  const em = officeQaExactMatch(prediction, reference);
  const f1 = officeQaTokenF1(prediction, reference);
  const score: OfficeQaScore = { prediction, source, em, f1, hard: em, soft: f1 };
  if (em === 0) score.failureReason = diagnoseOfficeQaMismatch(reply, prediction, source, reference);
  return score;
}
