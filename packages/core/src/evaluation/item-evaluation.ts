import type { RolloutPhase, ScoredRollout } from '@skillopt/contract';

/** One selection/test item whose rollout produced a score (now or from the cache). */
export interface ScoredItemEvaluation {
  status: 'scored';
  itemId: string;
  sampleIndex: number;
  hard: number;
  soft: number;
  /** True when the result came from the rollout cache and cost nothing. */
  cached: boolean;
  /** Rollout calls made for this item in this evaluation (0 for a cache hit). */
  attempts: number;
  result: ScoredRollout;
}

/**
 * One item whose rollout kept failing for infrastructure reasons. It carries no score at all: it is
 * left out of every mean and every gate comparison, and reported with the failure's code and message.
 */
export interface ExcludedItemEvaluation {
  status: 'excluded';
  itemId: string;
  sampleIndex: number;
  error: { code: string; message: string };
  attempts: number;
}

export type ItemEvaluation = ScoredItemEvaluation | ExcludedItemEvaluation;

/** What the evaluator did, for the ledger, the step record and the "nothing unchanged twice" check. */
export interface EvaluationCounters {
  /** Calls to `environment.rollout`, retries included. */
  rolloutsRun: number;
  /** Items answered from the rollout cache without a rollout. */
  cacheHits: number;
  /** Rollout calls that repeated an attempt after an infrastructure failure. */
  retries: number;
  /** Items left out because their infrastructure failure persisted. */
  excludedItems: number;
}

/**
 * Everything the `item-rolled-out` event needs, reported once per item as it completes (the event's
 * `runId` and `timestamp` are the caller's to add). `hard`/`soft` are absent for an excluded item,
 * which has `errorCode` instead. `completed` counts items finished so far, in completion order.
 */
export interface ItemRolledOutReport {
  phase: RolloutPhase;
  skillHash: string;
  itemId: string;
  sampleIndex: number;
  hard?: number;
  soft?: number;
  errorCode?: string;
  cached: boolean;
  completed: number;
  total: number;
}
