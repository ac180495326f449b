import { isBlankAnswer } from './answer-normalisation.js';

/** A number read from an answer; `isPercentage` when it was written with a `%` sign ("12%" is 12). */
export interface NumericAnswer {
  value: number;
  isPercentage: boolean;
}

export interface NumericTolerance {
  /** Allowed difference relative to the larger magnitude; default 1e-6. */
  relativeTolerance?: number;
  /** Allowed absolute difference, for values near 0; default 0. */
  absoluteTolerance?: number;
}

// One sign (ASCII or the Unicode minus U+2212), an optional currency symbol on either side of it,
// digits with optional comma thousands groups ("1,234"; "1,2" is not a number), decimals, exponent,
// then an optional percent sign.
const SIGN = '[+\\-\\u2212]';
const CURRENCY = '[$€£¥]';
const BODY = '(?:\\d{1,3}(?:,\\d{3})+|\\d+)(?:\\.\\d*)?|\\.\\d+';
const EXPONENT = '(?:[eE][+\\-]?\\d+)?';

const WHOLE_NUMBER = new RegExp(`^(${SIGN})?\\s*(?:${CURRENCY})?\\s*(${SIGN})?\\s*(${BODY})(${EXPONENT})\\s*(%)?$`, 'u');
// Inside free text a number must not continue a word or another number ("v2", "1.2.3").
const NUMBER_IN_TEXT = new RegExp(
  `(?<![\\p{L}\\p{N}_.,])(${SIGN})?(?:${CURRENCY})?(${SIGN})?((?:\\d{1,3}(?:,\\d{3})+(?!\\d)|\\d+)(?:\\.\\d+)?|\\.\\d+)(${EXPONENT})(\\s*%)?`,
  'gu',
);

function toNumericAnswer(
  leadingSign: string | undefined,
  innerSign: string | undefined,
  body: string,
  exponent: string,
  percent: string | undefined,
): NumericAnswer | null {
  if (leadingSign !== undefined && innerSign !== undefined) return null;
  const sign = leadingSign ?? innerSign ?? '+';
  const magnitude = Number(body.replace(/,/g, '') + exponent);
  if (!Number.isFinite(magnitude)) return null;
  return { value: sign === '+' ? magnitude : -magnitude, isPercentage: percent !== undefined && percent.trim() === '%' };
}

/**
 * Reads an answer that is just a number: "42", "-0.5", "−0.5", "+3", "1,234.5", "$3", "-$3",
 * "12%", "1e-3". Returns null for anything else (including number words, which are not read).
 */
export function parseNumericAnswer(text: string): NumericAnswer | null {
  const match = WHOLE_NUMBER.exec(text.trim());
  if (match === null) return null;
  return toNumericAnswer(match[1], match[2], match[3] ?? '', match[4] ?? '', match[5]);
}

/** The last number in free text ("so the total is $1,234.50." gives 1234.5), or null. */
export function extractLastNumericAnswer(text: string): NumericAnswer | null {
  let last: NumericAnswer | null = null;
  for (const match of text.matchAll(NUMBER_IN_TEXT)) {
    last = toNumericAnswer(match[1], match[2], match[3] ?? '', match[4] ?? '', match[5]) ?? last;
  }
  return last;
}

/** `|a − b| <= max(relativeTolerance · max(|a|, |b|), absoluteTolerance)`, like Python's `math.isclose`. */
export function numbersClose(left: number, right: number, tolerance: NumericTolerance = {}): boolean {
  const relative = tolerance.relativeTolerance ?? 1e-6;
  const absolute = tolerance.absoluteTolerance ?? 0;
  if (left === right) return true;
  if (!Number.isFinite(left) || !Number.isFinite(right)) return false;
  return Math.abs(left - right) <= Math.max(relative * Math.max(Math.abs(left), Math.abs(right)), absolute);
}

/**
 * Whether two numeric answers agree within `tolerance`. When exactly one was written as a
 * percentage, "12%" also agrees with 0.12: models and gold files switch between the two forms.
 */
export function numericAnswersMatch(left: NumericAnswer, right: NumericAnswer, tolerance: NumericTolerance = {}): boolean {
  if (numbersClose(left.value, right.value, tolerance)) return true;
  if (left.isPercentage === right.isPercentage) return false;
  const [percentage, plain] = left.isPercentage ? [left, right] : [right, left];
  return numbersClose(percentage.value / 100, plain.value, tolerance);
}

function readNumber(text: string): NumericAnswer | null {
  return parseNumericAnswer(text) ?? extractLastNumericAnswer(text);
}

/**
 * 1 when the prediction's number agrees with some reference's (see `numericAnswersMatch`), else 0.
 * Each text is read whole as a number (`parseNumericAnswer`) or, failing that, its last number is
 * taken (`extractLastNumericAnswer`). A blank prediction, or one without a number, gives 0.
 */
export function numericMatch(prediction: string, references: readonly string[], tolerance: NumericTolerance = {}): 0 | 1 {
  if (isBlankAnswer(prediction)) return 0;
  const predicted = readNumber(prediction);
  if (predicted === null) return 0;
  for (const reference of references) {
    const expected = readNumber(reference);
    if (expected !== null && numericAnswersMatch(predicted, expected, tolerance)) return 1;
  }
  return 0;
}
