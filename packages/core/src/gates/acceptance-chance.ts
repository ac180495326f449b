import { SCORE_TOLERANCE } from './gate-metric.js';

/**
 * The paired gate's futility stop: the predicted chance that the strict rule, once every item is
 * evaluated, would accept the candidate. docs/paired-gate.md has the derivation; in short:
 *
 * - Items are split by the incumbent's known result: those it passed (metric score ≥ ½: the
 *   candidate can mostly lose there) and those it failed (the candidate can mostly gain). The
 *   candidate's edits fix and break at different rates, so each group is predicted from its own
 *   evaluated items.
 * - In a group, the per-item differences seen so far give a mean and a second moment, each shrunk
 *   towards "no change" by `PRIOR_ITEMS` imaginary items whose difference is 0 on average with the
 *   spread of a fair coin (a second moment of ¼): with little evidence the prediction is "no
 *   change, but uncertain", not "certainly no change".
 * - The sum over a group's remaining items is taken as normal, with the variance of the items
 *   plus the uncertainty of the group's mean (which grows with the square of the items left).
 * - The chance is that the final paired difference, `(seen sum + predicted remaining sum) / items
 *   + bonus difference`, ends above the tolerance.
 *
 * It is a prediction, not a bound: a candidate it calls futile could still have won. What it buys
 * and what it costs in wrong rejections is measured by the gate bench (docs/benchmarks.md).
 */

/** Imaginary "no change" items each group starts with. */
const PRIOR_ITEMS = 2;
/** Their second moment: a difference of ±1 half the time. */
const PRIOR_SECOND_MOMENT = 0.25;

/** One group of items: the differences seen and how many are still to come. */
export interface AcceptanceChanceGroup {
  /** Candidate-minus-incumbent differences on the gate metric of the evaluated items. */
  seenDeltas: readonly number[];
  /** Items of the group not evaluated yet that can still be paired. */
  remaining: number;
}

/** The chance that the final paired difference ends above the tolerance; 0 or 1 when nothing remains. */
export function strictAcceptanceChance(groups: readonly AcceptanceChanceGroup[], bonusDifference: number): number {
  let seenSum = 0;
  let seenCount = 0;
  let remainingCount = 0;
  let predictedMean = 0;
  let predictedVariance = 0;
  for (const group of groups) {
    const sum = group.seenDeltas.reduce((total, delta) => total + delta, 0);
    const squares = group.seenDeltas.reduce((total, delta) => total + delta * delta, 0);
    seenSum += sum;
    seenCount += group.seenDeltas.length;
    remainingCount += group.remaining;
    const weight = group.seenDeltas.length + PRIOR_ITEMS;
    const mean = sum / weight;
    const variance = Math.max(0, (squares + PRIOR_ITEMS * PRIOR_SECOND_MOMENT) / weight - mean * mean);
    predictedMean += group.remaining * mean;
    predictedVariance += group.remaining * variance + (group.remaining * group.remaining * variance) / weight;
  }
  const total = seenCount + remainingCount;
  if (total === 0) return 0;
  // The final difference is above the tolerance when the summed differences exceed this.
  const neededSum = (SCORE_TOLERANCE - bonusDifference) * total;
  const expected = seenSum + predictedMean;
  if (remainingCount === 0 || predictedVariance === 0) return expected > neededSum ? 1 : 0;
  return 1 - standardNormalDistribution((neededSum - expected) / Math.sqrt(predictedVariance));
}

/** Φ(x), by the complementary error function (Numerical Recipes' erfc, absolute error below 1.2e-7). */
function standardNormalDistribution(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  const t = 1 / (1 + z / 2);
  const polynomial =
    -z * z -
    1.26551223 +
    t *
      (1.00002368 +
        t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277))))))));
  const complement = t * Math.exp(polynomial);
  return x >= 0 ? 1 - complement / 2 : complement / 2;
}
