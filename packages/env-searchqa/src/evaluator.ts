import { answerTokens, exactMatch, isBlankAnswer, locateTaggedAnswer, normaliseAnswer, tokenF1 } from '@skillopt/env-kit';

/** Where the scored answer was taken from (see `locateTaggedAnswer`). */
export type AnswerSource = 'tag' | 'last-line' | 'none';

export interface SearchQaScore {
  /** The extracted answer: the last `<answer>…</answer>`, else the last non-empty line, else "". */
  prediction: string;
  source: AnswerSource;
  /** SQuAD exact match against any reference: the pass mark (`hard`). */
  em: 0 | 1;
  /** Best SQuAD token F1 over the references: the graded score (`soft`). */
  f1: number;
  /** Recorded for comparison with the original, never used for scoring; 0 for a blank prediction. */
  subEm: 0 | 1;
  hard: 0 | 1;
  soft: number;
  /** Why the answer did not match, in neutral words, when it did not. */
  failureReason?: string;
}

/**
 * 1 when a normalised reference is contained in the normalised prediction or the other way round.
 * The original recorded this as `sub_em`; there an empty prediction was a substring of everything
 * and scored 1. Here a prediction that is blank or normalises to nothing never matches.
 */
export function substringMatch(prediction: string, references: readonly string[]): 0 | 1 {
  const normalisedPrediction = normaliseAnswer(prediction);
  if (normalisedPrediction === '') return 0;
  return references.some((reference) => {
    const normalisedReference = normaliseAnswer(reference);
    return normalisedReference !== '' && (normalisedPrediction.includes(normalisedReference) || normalisedReference.includes(normalisedPrediction));
  })
    ? 1
    : 0;
}

const NUMBER_WORDS = new Set(
  (
    'zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen ' +
    'eighteen nineteen twenty thirty forty fifty sixty seventy eighty ninety hundred thousand million billion'
  ).split(' '),
);
const MONTHS = 'january|february|march|april|may|june|july|august|september|october|november|december';
const MONTH_DAY_YEAR = new RegExp(`^(?:${MONTHS}) \\d{1,2}, \\d{3,4}$`, 'i');
const OTHER_DATE_FORMS = [
  /\b\d{4}-\d{1,2}-\d{1,2}\b/, // 1969-07-20
  /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/, // 20/07/1969, 7.20.1969
  new RegExp(`\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?(?:${MONTHS})\\b`, 'i'), // 20 July 1969
  new RegExp(`\\b(?:${MONTHS})\\.? \\d{1,2}(?:st|nd|rd|th)\\b`, 'i'), // July 20th
  new RegExp(`\\b(?:${MONTHS}) \\d{1,2} \\d{3,4}\\b`, 'i'), // July 20 1969 (no comma is fine after normalising)
];
const DIGITS_ONLY = /^\d+$/;

/** The lower-case letter runs of a text: "Twenty-one." gives ["twenty", "one"]. */
function writtenWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter((word) => word !== '');
}

/** A short run of capitalised words ("Marie Curie", "Sir Isaac Newton", "Leonardo da Vinci"). */
function looksLikeAName(text: string): boolean {
  const words = text
    .trim()
    .replace(/[.,;:!?]+$/, '')
    .split(/\s+/);
  const particles = new Set(['da', 'de', 'del', 'der', 'di', 'du', 'la', 'le', 'van', 'von', 'y']);
  return words.length >= 2 && words.length <= 5 && words.every((word) => /^\p{Lu}/u.test(word) || particles.has(word));
}

function containsRun(haystack: readonly string[], needle: readonly string[]): { start: number } | undefined {
  if (needle.length === 0 || needle.length > haystack.length) return undefined;
  for (let start = 0; start + needle.length <= haystack.length; start += 1) {
    if (needle.every((token, offset) => haystack[start + offset] === token)) return { start };
  }
  return undefined;
}

/**
 * Why a non-matching answer failed, in neutral words the optimizer can act on without being told
 * what rule to write. Checks the shape of the answer against the shape of the references: missing
 * or malformed tags, extra words around a correct answer, numbers written in words, dates in
 * another format, partial overlap.
 */
export function diagnoseMismatch(reply: string, prediction: string, source: AnswerSource, references: readonly string[]): string {
  const reasons: string[] = [];
  const hasTagFragment = /<\s*\/?\s*answer\b/i.test(reply) || /\banswer\s*>/i.test(reply);
  if (source === 'none') return 'the reply holds no answer at all';
  if (source === 'last-line') {
    reasons.push(
      hasTagFragment
        ? 'the <answer> tag is malformed or not closed, so the last line was scored instead'
        : 'no <answer> tag, so the last line of the reply was scored instead',
    );
  }
  if (source === 'tag' && isBlankAnswer(prediction)) return 'the <answer> tag is empty';

  const predictionTokens = answerTokens(prediction);
  const referenceTokenLists = references.map(answerTokens).filter((tokens) => tokens.length > 0);
  const containing = referenceTokenLists.find((tokens) => containsRun(predictionTokens, tokens) !== undefined);
  const referencesAreDigits = referenceTokenLists.some((tokens) => tokens.length === 1 && DIGITS_ONLY.test(tokens[0] ?? ''));
  const referenceIsMonthDayYear = references.some((reference) => MONTH_DAY_YEAR.test(reference.trim()));

  if (containing !== undefined) {
    const extra = predictionTokens.length - containing.length;
    const at = containsRun(predictionTokens, containing)?.start ?? 0;
    const before = at > 0;
    const after = at + containing.length < predictionTokens.length;
    if (DIGITS_ONLY.test(containing[0] ?? '') && containing.length === 1 && !before && after) {
      reasons.push('the number is right but words follow it (such as a unit); the reference is the bare number');
    } else if (containing.length === 1 && before && !after && extra <= 3 && looksLikeAName(prediction)) {
      reasons.push('the reference is one word and the answer adds words before it (such as a first name or title)');
    } else {
      reasons.push(`the answer holds the reference plus ${extra} extra word${extra === 1 ? '' : 's'} around it`);
    }
  } else if (referencesAreDigits && !/\d/.test(prediction) && writtenWords(prediction).some((word) => NUMBER_WORDS.has(word))) {
    reasons.push('expected digits, but the number is written in words');
  } else if (referenceIsMonthDayYear && OTHER_DATE_FORMS.some((form) => form.test(prediction))) {
    reasons.push('a date in a different format from the reference (which is written like "Month D, YYYY")');
  } else if (referencesAreDigits && /\d/.test(prediction) && !/^[\d.,\s]+$/.test(prediction.trim())) {
    reasons.push('the answer mixes the number with other text; the reference is the bare number');
  } else {
    const f1 = tokenF1(prediction, references);
    reasons.push(f1 > 0 ? 'a different answer that only partly overlaps the reference' : 'a different answer from the reference');
  }
  return reasons.join('; ');
}

/**
 * Scores one reply the SearchQA way: extract the answer (last `<answer>` tag, case-insensitive,
 * may span lines; else the last non-empty line), SQuAD-normalise, hard = exact match, soft = token
 * F1. A blank prediction never matches.
 */
export function scoreSearchQaReply(reply: string, references: readonly string[]): SearchQaScore {
  const { answer: prediction, source } = locateTaggedAnswer(reply);
  const em = exactMatch(prediction, references);
  const f1 = tokenF1(prediction, references);
  const score: SearchQaScore = {
    prediction,
    source,
    em,
    f1,
    subEm: substringMatch(prediction, references),
    hard: em,
    soft: f1,
  };
  if (em === 0) score.failureReason = diagnoseMismatch(reply, prediction, source, references);
  return score;
}
