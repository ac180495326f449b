import { SCORE_TOLERANCE, type HardSoft } from './gate-metric.js';
import type { GateItemResult } from './gate-item-result.js';
import { itemMetricScore, type GateScoring } from './gate-scoring.js';

/** How one item's gate-metric score moved from the incumbent to the candidate. */
export interface ItemDelta {
  itemId: string;
  candidate: number;
  incumbent: number;
  /** `candidate − incumbent`. */
  delta: number;
  change: 'improved' | 'regressed' | 'unchanged';
}

/** An item that cannot be compared, and why (it is left out of both sides' scores). */
export interface UnpairedItem {
  itemId: string;
  reason: 'excluded-for-candidate' | 'excluded-for-incumbent' | 'excluded-for-both' | 'missing-for-candidate' | 'missing-for-incumbent';
}

/**
 * Candidate and incumbent results matched item by item. Only items *scored on both sides* are
 * compared: an item excluded (infrastructure failure) or missing on either side is left out of
 * both, so both scores are means over the very same items and the comparison is paired and fair —
 * an incumbent whose hard item happened to time out does not get an easier test than the candidate.
 */
export interface ItemPairing {
  /** One per item scored on both sides, in the candidate's order. */
  deltas: ItemDelta[];
  unpaired: UnpairedItem[];
  /** Means of hard and soft over the paired items only (0 when there are none). */
  candidateMeans: HardSoft;
  incumbentMeans: HardSoft;
}

function changeOf(delta: number): ItemDelta['change'] {
  if (delta > SCORE_TOLERANCE) return 'improved';
  if (delta < -SCORE_TOLERANCE) return 'regressed';
  return 'unchanged';
}

export function pairItemResults(candidate: readonly GateItemResult[], incumbent: readonly GateItemResult[], scoring: GateScoring): ItemPairing {
  const incumbentById = new Map(incumbent.map((result) => [result.itemId, result]));
  const candidateIds = new Set(candidate.map((result) => result.itemId));
  const deltas: ItemDelta[] = [];
  const unpaired: UnpairedItem[] = [];
  const sums = { candidateHard: 0, candidateSoft: 0, incumbentHard: 0, incumbentSoft: 0 };

  for (const candidateResult of candidate) {
    const incumbentResult = incumbentById.get(candidateResult.itemId);
    const itemId = candidateResult.itemId;
    if (incumbentResult === undefined) {
      unpaired.push({ itemId, reason: 'missing-for-incumbent' });
    } else if (candidateResult.status !== 'scored' && incumbentResult.status !== 'scored') {
      unpaired.push({ itemId, reason: 'excluded-for-both' });
    } else if (candidateResult.status !== 'scored') {
      unpaired.push({ itemId, reason: 'excluded-for-candidate' });
    } else if (incumbentResult.status !== 'scored') {
      unpaired.push({ itemId, reason: 'excluded-for-incumbent' });
    } else {
      const candidateScore = itemMetricScore(candidateResult, scoring);
      const incumbentScore = itemMetricScore(incumbentResult, scoring);
      const delta = candidateScore - incumbentScore;
      deltas.push({ itemId, candidate: candidateScore, incumbent: incumbentScore, delta, change: changeOf(delta) });
      sums.candidateHard += candidateResult.hard;
      sums.candidateSoft += candidateResult.soft;
      sums.incumbentHard += incumbentResult.hard;
      sums.incumbentSoft += incumbentResult.soft;
    }
  }
  for (const incumbentResult of incumbent) {
    if (!candidateIds.has(incumbentResult.itemId)) unpaired.push({ itemId: incumbentResult.itemId, reason: 'missing-for-candidate' });
  }

  const count = deltas.length;
  const mean = (sum: number): number => (count === 0 ? 0 : sum / count);
  return {
    deltas,
    unpaired,
    candidateMeans: { hard: mean(sums.candidateHard), soft: mean(sums.candidateSoft) },
    incumbentMeans: { hard: mean(sums.incumbentHard), soft: mean(sums.incumbentSoft) },
  };
}
