import type { LedgerTotals } from '../ledger/usage-totals.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import type { TrainingCounters } from './training-context.js';

/** A skill's means on the test split, over its scored items; null when none was scored. */
export interface TestScores {
  hard: number | null;
  soft: number | null;
  scored: number;
  excluded: number;
}

/** One task type's hard test scores (the items' `taskType`), for the three skills the run tests. */
export interface TaskTypeTestScores {
  taskType: string;
  items: number;
  initial: number | null;
  best: number | null;
  final: number | null;
}

/**
 * summary.json: what a finished run achieved and what it cost. Fields documented as absent in
 * earlier releases are missing from summaries those releases wrote; readers must allow for it.
 */
export interface RunSummary {
  runId: string;
  runDirectory: string;
  environmentId: string;
  targetModel: string;
  optimizerModel: string;
  splitSizes: { train: number; val: number; test: number };
  epochs: number;
  stepsPerEpoch: number;
  /** The initial skill on the selection split. */
  baseline: SelectionScores;
  /** The best skill on the whole selection split. */
  best: SelectionScores & { origin: string; step: number | null; skillHash: string };
  /**
   * Test scores of the initial skill, the best one and the final one (the current skill when the
   * run ended: epoch-end stages and gates decided on part of the split can leave it apart from the best), when
   * `evaluation.eval_test` is on; by task type in the order the types first appear in the split.
   * `final` and `byTaskType` are absent in earlier releases.
   */
  test: { initial: TestScores; best: TestScores; final?: TestScores; byTaskType?: TaskTypeTestScores[] } | null;
  /** The roles whose backend is a simulator (its manifest's `simulator` part); absent in earlier releases. */
  simulatedRoles?: Array<'target' | 'optimizer'>;
  acceptedCandidates: number;
  rejectedCandidates: number;
  stageFailures: TrainingCounters['stageFailures'];
  excludedItems: Array<{ phase: string; itemId: string; code: string; message: string }>;
  rollouts: { run: number; cacheHits: number; retries: number };
  /** Model calls on the critical path, counted in waves of concurrent calls. */
  sequentialWaves: number;
  /**
   * The critical path in call latencies: the fewest latency slots in which the run's calls could
   * complete if each took one unit of time, under the limits on calls in flight (wall time at
   * latency L is at least this × L). Absent in the summary of a run finished before it was counted.
   */
  latencySlots?: number;
  usage: LedgerTotals;
  bestSkillPath: string;
}
