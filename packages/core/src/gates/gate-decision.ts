import type { GateItemResult } from './gate-item-result.js';
import type { GateScore, GateScoring } from './gate-scoring.js';
import type { GateVeto } from './gate-vetoes.js';
import type { ItemDelta, UnpairedItem } from './item-pairing.js';

/** `strict`: the original's rule on paired items. `paired`: the sequential test that can stop early. */
export const GATE_STRATEGIES = ['strict', 'paired'] as const;
export type GateStrategy = (typeof GATE_STRATEGIES)[number];

/** Everything that decides whether a candidate may replace the incumbent. */
export interface GateRules extends GateScoring {
  /** `evaluation.use_gate`; false records the comparison, then accepts whatever it says. */
  useGate: boolean;
  /** No item scored by both may get worse. */
  noRegression: boolean;
  /** Items the candidate must pass; failing (or not being scored on) any one vetoes it. */
  mustPassItemIds: readonly string[];
}

/** One side of the comparison: its skill text (for the density bonus) and its per-item results. */
export interface GateSide {
  skill: string;
  items: readonly GateItemResult[];
}

/**
 * The gate's verdict and its evidence. `candidateScore`/`incumbentScore` are gate scores over the
 * same paired items (see `pairItemResults`), which is what `candidate-evaluated` and
 * `gate-decided` report.
 */
export interface GateDecision {
  strategy: GateStrategy;
  accepted: boolean;
  /** `force-accept` when the gate is off (the original's `force_accept`). */
  action: 'accept' | 'reject' | 'force-accept';
  /** What the gate itself concluded; differs from `accepted` only when the gate is off. */
  gateSaysAccept: boolean;
  /** One line a person can read: what was compared and why it went this way. */
  reason: string;
  candidateScore: number;
  incumbentScore: number;
  candidate: GateScore;
  incumbent: GateScore;
  /** Per-item movement on the items scored by both, in item order. */
  itemDeltas: ItemDelta[];
  /** Items left out of both sides' scores, and why. */
  unpairedItems: UnpairedItem[];
  vetoes: GateVeto[];
  /** Selection items the candidate was evaluated on for this decision. */
  itemsEvaluated: number;
  /** Selection items available. */
  itemsTotal: number;
}
