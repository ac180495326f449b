import { SCORE_TOLERANCE } from './gate-metric.js';

/**
 * A sequential sign test: Wald's SPRT on the *discordant* pairs of a paired comparison, with
 * Ville's-inequality boundaries so it may be looked at after every chunk without inflating its
 * error rate. docs/paired-gate.md explains it in full; in short:
 *
 * - For each item scored on both sides, `d = candidate − incumbent` on the gate metric. `d = 0`
 *   (both passed, both failed, equal soft score) carries no information about which skill is better
 *   and is skipped; `d > 0` is a *win*, `d < 0` a *loss*.
 * - Null hypothesis "the candidate is no better": on every discordant item the chance of a win is
 *   at most 1/2. Alternative "clearly better": a win chance of `p₁` (default 0.75).
 * - `Λ_better = (2p₁)^wins · (2(1 − p₁))^losses` is the likelihood ratio of p₁ against 1/2. Under
 *   the null it is a non-negative supermartingale, so by Ville's inequality
 *   P(Λ_better ever reaches 1/α) ≤ α — for any number of looks, any chunk sizes, and items of any
 *   mixture of difficulties. Reaching it is the verdict *better*.
 * - Symmetrically `Λ_worse` (wins and losses swapped) reaching 1/α is the verdict *worse*; a truly
 *   better candidate is rejected that way with probability at most α.
 * The two cannot both be reached: `ln Λ_better + ln Λ_worse = n · ln(4p₁(1 − p₁)) < 0`.
 */
export interface SequentialSignTestSettings {
  /** The error rate of each verdict, in (0, 1). */
  alpha: number;
  /** The win chance on discordant items that counts as "clearly" better (or, mirrored, worse); in (1/2, 1). */
  alternativeWinRate: number;
}

export const DEFAULT_ALTERNATIVE_WIN_RATE = 0.75;

export type SignTestVerdict = 'better' | 'worse' | 'undecided';

export interface SignTestState {
  wins: number;
  losses: number;
  /** Pairs with no difference (skipped by the test). */
  ties: number;
  /** `ln Λ_better`, computed from the counts (not accumulated, so it has no drift). */
  logRatioBetter: number;
  logRatioWorse: number;
  /** `ln(1/α)`: either log ratio reaching it decides. */
  threshold: number;
  verdict: SignTestVerdict;
}

export function checkSignTestSettings(settings: SequentialSignTestSettings): void {
  const { alpha, alternativeWinRate } = settings;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  if (!(alternativeWinRate > 0.5 && alternativeWinRate < 1)) {
    throw new RangeError(`the alternative win rate must be in (0.5, 1), got ${alternativeWinRate}`);
  }
}

/** The log-likelihood-ratio step of one win and of one loss for `Λ_better`. */
export function signTestSteps(alternativeWinRate: number): { win: number; loss: number } {
  return { win: Math.log(2 * alternativeWinRate), loss: Math.log(2 * (1 - alternativeWinRate)) };
}

/** The state after observing these per-item differences. */
export function signTestState(counts: { wins: number; losses: number; ties: number }, settings: SequentialSignTestSettings): SignTestState {
  const steps = signTestSteps(settings.alternativeWinRate);
  const logRatioBetter = counts.wins * steps.win + counts.losses * steps.loss;
  const logRatioWorse = counts.losses * steps.win + counts.wins * steps.loss;
  const threshold = Math.log(1 / settings.alpha);
  // A tiny allowance so that a boundary hit exactly in exact arithmetic is not missed to rounding.
  const reaches = (logRatio: number): boolean => logRatio >= threshold - 1e-12;
  const verdict: SignTestVerdict = reaches(logRatioBetter) ? 'better' : reaches(logRatioWorse) ? 'worse' : 'undecided';
  return { ...counts, logRatioBetter, logRatioWorse, threshold, verdict };
}

/** Adds per-item differences to win/loss/tie counts. */
export function countSigns(counts: { wins: number; losses: number; ties: number }, deltas: readonly number[]): { wins: number; losses: number; ties: number } {
  let { wins, losses, ties } = counts;
  for (const delta of deltas) {
    if (delta > SCORE_TOLERANCE) wins += 1;
    else if (delta < -SCORE_TOLERANCE) losses += 1;
    else ties += 1;
  }
  return { wins, losses, ties };
}

/**
 * Whether `Λ_better` (or `Λ_worse`) could still reach the boundary if all of the `remaining` items
 * went the candidate's way (or against it). Used to stop once the outcome can no longer change.
 */
export function canStillReach(state: SignTestState, direction: 'better' | 'worse', remaining: number, alternativeWinRate: number): boolean {
  const { win } = signTestSteps(alternativeWinRate);
  const current = direction === 'better' ? state.logRatioBetter : state.logRatioWorse;
  return current + remaining * win >= state.threshold - 1e-12;
}
