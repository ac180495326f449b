import { DEFAULT_GATE_MIXED_WEIGHT, projectGateMetric, type GateMetric, type HardSoft } from './gate-metric.js';
import { DEFAULT_LEADING_WORDS, semanticDensity } from './semantic-density.js';

/** How a skill's evaluation becomes one gate number (the `evaluation.gate_*` and density keys). */
export interface GateScoring {
  metric: GateMetric;
  /** Soft share of `mixed`, clamped to [0, 1]; default 0.5. */
  mixedWeight?: number;
  /** The density bonus; absent means off (the default). */
  semanticDensity?: { weight: number; leadingWords?: readonly string[] };
}

/** A skill's gate score and what it is made of, for the step record. */
export interface GateScore {
  /** The metric projection of the means (what the tasks say). */
  metricScore: number;
  /** `weight × density(skill)`, or 0 when the bonus is off (what the text says). */
  densityBonus: number;
  /** `metricScore + densityBonus`: the number the gate compares. */
  score: number;
}

/** The gate score of a skill whose evaluation had these means (§3.1). */
export function gateScore(means: HardSoft, skill: string, scoring: GateScoring): GateScore {
  const metricScore = projectGateMetric(means, scoring.metric, scoring.mixedWeight ?? DEFAULT_GATE_MIXED_WEIGHT);
  const density = scoring.semanticDensity;
  const densityBonus = density === undefined ? 0 : density.weight * semanticDensity(skill, density.leadingWords ?? DEFAULT_LEADING_WORDS);
  return { metricScore, densityBonus, score: metricScore + densityBonus };
}

/**
 * One item's score on the gate metric, without the density bonus: the bonus belongs to the text,
 * not to any task's outcome, so per-item comparisons (no-regression, the paired test) leave it out.
 */
export function itemMetricScore(item: HardSoft, scoring: GateScoring): number {
  return projectGateMetric(item, scoring.metric, scoring.mixedWeight ?? DEFAULT_GATE_MIXED_WEIGHT);
}
