import { isBlankAnswer, normaliseAnswer } from './answer-normalisation.js';

/**
 * 1 when the prediction equals some reference after SQuAD normalisation (`normaliseAnswer`), else 0.
 * A blank prediction matches only a blank reference (see `isBlankAnswer`); no references gives 0.
 */
export function exactMatch(prediction: string, references: readonly string[]): 0 | 1 {
  if (isBlankAnswer(prediction)) return references.some(isBlankAnswer) ? 1 : 0;
  const normalisedPrediction = normaliseAnswer(prediction);
  return references.some((reference) => !isBlankAnswer(reference) && normaliseAnswer(reference) === normalisedPrediction) ? 1 : 0;
}
