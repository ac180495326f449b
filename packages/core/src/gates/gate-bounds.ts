import { SCORE_TOLERANCE } from './gate-metric.js';
import type { ItemDelta } from './item-pairing.js';

/**
 * The one place that answers "can the items not yet evaluated still change the strict decision?",
 * used by the paired gate (for its strict fallback) and by the early-stopping strict gate.
 *
 * The strict rule accepts when the paired gate-score difference
 * `(Σ d over paired items) / (paired items) + (candidate bonus − incumbent bonus)` is above
 * `SCORE_TOLERANCE`, at least one item is paired and no veto applies. Per-item differences `d` are
 * on the gate metric (the density bonus is known up front from the two texts and is not per item).
 * An item not evaluated yet lies in a known range `[low, high]` — `[−1, 1]` when nothing is known,
 * `[−m, 1 − m]` when the incumbent's metric score `m` is known (scores are in [0, 1]) — and it may
 * still be excluded (an infrastructure failure), which drops it from both sides. So the final
 * difference is a mean over the paired items so far plus *any subset* of the pairable remaining
 * items, each at any value of its range.
 */

/** An item whose candidate result is not known yet, and that could still be paired. */
export interface PendingItemRange {
  /** The smallest and the largest candidate-minus-incumbent difference it can have on the gate metric. */
  low: number;
  high: number;
}

/** The range of the final paired difference (bonus included) over every way the remaining items can go. */
export interface StrictDifferenceBounds {
  /** The largest final difference; `−∞` when no completion pairs any item. */
  best: number;
  /** The smallest final difference; `−∞` when some completion pairs no item (nothing to compare: rejected). */
  worst: number;
}

/**
 * Bounds of the final difference. For the best case each included item takes its `high`; which
 * items are included is free (exclusions), and for a given count the best subset is the one with
 * the largest `high`s — so the maximum over prefix lengths of the sorted `high`s is exact. The
 * worst case mirrors it with the smallest `low`s.
 */
export function strictDifferenceBounds(seen: readonly ItemDelta[], pending: readonly PendingItemRange[], bonusDifference: number): StrictDifferenceBounds {
  const paired = seen.length;
  const sum = seen.reduce((total, delta) => total + delta.delta, 0);
  const highs = pending.map((item) => item.high).sort((a, b) => b - a);
  const lows = pending.map((item) => item.low).sort((a, b) => a - b);
  let best = Number.NEGATIVE_INFINITY;
  let worst = paired === 0 ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  let highSum = sum;
  let lowSum = sum;
  for (let count = 0; count <= pending.length; count += 1) {
    if (count > 0) {
      highSum += highs[count - 1] as number;
      lowSum += lows[count - 1] as number;
    }
    const size = paired + count;
    if (size === 0) continue;
    best = Math.max(best, highSum / size + bonusDifference);
    worst = Math.min(worst, lowSum / size + bonusDifference);
  }
  return { best, worst };
}

/**
 * A margin against rounding: the bounds are computed from summed per-item differences, the strict
 * rule from the projected means, and the two can differ in the last bits. A decision is called
 * settled only when the bound clears the tolerance by this much, so a rounding difference can never
 * make the early decision differ from the full one; in the band in between, evaluation goes on.
 */
const SETTLED_MARGIN = SCORE_TOLERANCE / 2;

/** What the strict rule can still conclude. */
export interface StrictOutlook {
  /** Some completion of the remaining items is accepted by the strict rule. */
  canAccept: boolean;
  /** Every completion is accepted: no veto can appear and the worst difference is still above the tolerance. */
  surelyAccepts: boolean;
}

/**
 * The strict rule's outlook: a veto already seen (a failed must-pass item, a regression under
 * `noRegression`) cannot be undone, so nothing is accepted; a veto that a remaining item could
 * still add (an unchecked must-pass item, a possible regression) rules out a sure accept.
 */
export function strictOutlook(bounds: StrictDifferenceBounds, vetoes: { seen: boolean; stillPossible: boolean }): StrictOutlook {
  return {
    canAccept: !vetoes.seen && bounds.best > SCORE_TOLERANCE - SETTLED_MARGIN,
    surelyAccepts: !vetoes.seen && !vetoes.stillPossible && bounds.worst > SCORE_TOLERANCE + SETTLED_MARGIN,
  };
}
