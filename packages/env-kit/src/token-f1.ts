import { answerTokens, isBlankAnswer } from './answer-normalisation.js';

function countTokens(tokens: readonly string[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const token of tokens) counts.set(token, (counts.get(token) ?? 0) + 1);
  return counts;
}

function f1AgainstOne(predictionTokens: readonly string[], referenceTokens: readonly string[]): number {
  const referenceCounts = countTokens(referenceTokens);
  let common = 0;
  // Multiset overlap: a token counts as often as it appears in both, not once.
  for (const [token, count] of countTokens(predictionTokens)) common += Math.min(count, referenceCounts.get(token) ?? 0);
  if (common === 0) return 0;
  const precision = common / predictionTokens.length;
  const recall = common / referenceTokens.length;
  return (2 * precision * recall) / (precision + recall);
}

/**
 * SQuAD token F1 of the prediction, the best over all references: tokens of the normalised texts,
 * precision and recall from their multiset overlap. `tokenF1("new york city", ["New York"])` is 0.8.
 *
 * Edge cases, as in the SQuAD script except for the blank prediction: references that normalise to
 * no tokens are skipped; a prediction with no tokens scores 1 only when some reference has none
 * either. A blank prediction scores 0 against any non-blank reference (see `isBlankAnswer`).
 * No references gives 0.
 */
export function tokenF1(prediction: string, references: readonly string[]): number {
  if (isBlankAnswer(prediction)) return references.some(isBlankAnswer) ? 1 : 0;
  const predictionTokens = answerTokens(prediction);
  // Blank references only ever match blank predictions, as in `exactMatch`.
  const referenceTokenLists = references.filter((reference) => !isBlankAnswer(reference)).map(answerTokens);
  if (predictionTokens.length === 0) return referenceTokenLists.some((tokens) => tokens.length === 0) ? 1 : 0;
  let best = 0;
  for (const referenceTokens of referenceTokenLists) {
    if (referenceTokens.length === 0) continue;
    best = Math.max(best, f1AgainstOne(predictionTokens, referenceTokens));
  }
  return best;
}
