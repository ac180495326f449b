import type { ItemEvaluation } from './item-evaluation.js';

/**
 * The means of one evaluation, over scored items only (the original's `compute_score`): an excluded
 * item is an infrastructure failure and counts neither as a pass nor as a fail. With nothing scored
 * both means are 0, as in the original, and `nothingScored` says so, so that a 0 that means "no
 * evidence" is never mistaken for a 0 that means "failed everything".
 */
export interface ScoreSummary {
  meanHard: number;
  meanSoft: number;
  scoredCount: number;
  excludedCount: number;
  nothingScored: boolean;
}

/** The structural part of an item result that scoring needs; `ItemEvaluation` fits it. */
export type ScoreableItem = Pick<ItemEvaluation, 'status'> & { hard?: number; soft?: number };

export function summarizeScores(items: readonly ScoreableItem[]): ScoreSummary {
  let hardSum = 0;
  let softSum = 0;
  let scoredCount = 0;
  let excludedCount = 0;
  for (const item of items) {
    if (item.status !== 'scored') {
      excludedCount += 1;
      continue;
    }
    hardSum += item.hard ?? 0;
    softSum += item.soft ?? 0;
    scoredCount += 1;
  }
  return {
    meanHard: scoredCount === 0 ? 0 : hardSum / scoredCount,
    meanSoft: scoredCount === 0 ? 0 : softSum / scoredCount,
    scoredCount,
    excludedCount,
    nothingScored: scoredCount === 0,
  };
}
