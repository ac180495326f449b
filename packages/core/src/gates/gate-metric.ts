import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** Which number the gate compares (config `evaluation.gate_metric`). */
export const GATE_METRICS = ['hard', 'soft', 'mixed'] as const;
export type GateMetric = (typeof GATE_METRICS)[number];

/** The soft share of `mixed` when the config names none (config `evaluation.gate_mixed_weight`). */
export const DEFAULT_GATE_MIXED_WEIGHT = 0.5;

/**
 * Two scores that are equal up to floating-point noise count as equal. Means of the same items in
 * a different summation order (or a `mixed` projection) can differ in the last bits, and "strictly
 * higher" must not accept a candidate on that.
 */
export const SCORE_TOLERANCE = 1e-12;

/** The pair of numbers every rollout and every mean has. */
export interface HardSoft {
  hard: number;
  soft: number;
}

/** The mixed weight as the original uses it: clamped to [0, 1]; a non-number is a config error. */
export function clampMixedWeight(weight: number): number {
  if (Number.isNaN(weight)) {
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: 'the gate mixed weight is not a number' });
  }
  return Math.min(1, Math.max(0, weight));
}

/**
 * Projects hard/soft onto the gate metric (the original's `select_gate_score` without the density
 * bonus): `hard`, `soft`, or `(1 − w)·hard + w·soft` with `w` clamped to [0, 1]. Applied to means
 * for a skill's score and to single items for the paired comparison; since it is linear, the mean
 * of the per-item projections equals the projection of the means.
 */
export function projectGateMetric(scores: HardSoft, metric: GateMetric, mixedWeight = DEFAULT_GATE_MIXED_WEIGHT): number {
  switch (metric) {
    case 'hard':
      return scores.hard;
    case 'soft':
      return scores.soft;
    case 'mixed': {
      const weight = clampMixedWeight(mixedWeight);
      return (1 - weight) * scores.hard + weight * scores.soft;
    }
    default:
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `unknown gate metric "${String(metric)}"; expected one of ${GATE_METRICS.join(', ')}`,
      });
  }
}
