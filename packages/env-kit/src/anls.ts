import { levenshteinDistance } from '@skillopt/runtime-kit';

/** DocVQA's threshold: a normalised distance at or above it scores 0. */
export const ANLS_THRESHOLD = 0.5;

export interface AnlsOptions {
  threshold?: number;
}

// DocVQA's own normalisation is lighter than SQuAD's: case and whitespace only, punctuation counts.
function normaliseForAnls(text: string): string {
  return text.trim().toLowerCase().replace(/\s+/gu, ' ');
}

/**
 * The normalised Levenshtein similarity of one prediction to one reference: `1 − d` where
 * `d = distance / longer length` (code points), or 0 when `d >= threshold`. Both blank gives 1,
 * exactly one blank gives 0.
 */
export function normalisedLevenshteinSimilarity(prediction: string, reference: string, options: AnlsOptions = {}): number {
  const threshold = options.threshold ?? ANLS_THRESHOLD;
  const left = normaliseForAnls(prediction);
  const right = normaliseForAnls(reference);
  if (left === '' && right === '') return 1;
  if (left === '' || right === '') return 0;
  const longer = Math.max(Array.from(left).length, Array.from(right).length);
  const normalisedDistance = levenshteinDistance(left, right) / longer;
  return normalisedDistance >= threshold ? 0 : 1 - normalisedDistance;
}

/**
 * ANLS (average normalised Levenshtein similarity) for one question, as DocVQA scores it: the best
 * `normalisedLevenshteinSimilarity` over the references. `"Jonh Smith"` against
 * `["John Smith", "J. Smith"]` scores 0.8. No references gives 0.
 */
export function anlsScore(prediction: string, references: readonly string[], options: AnlsOptions = {}): number {
  let best = 0;
  for (const reference of references) best = Math.max(best, normalisedLevenshteinSimilarity(prediction, reference, options));
  return best;
}
