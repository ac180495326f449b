import type { LedgerTotals } from '../ledger/usage-totals.js';
import type { SelectionScores } from '../run-store/runtime-state.js';
import type { TrainingCounters } from './training-context.js';

/** summary.json: what a finished run achieved and what it cost. */
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
  /** Test scores of the initial and the best skill, when `evaluation.eval_test` is on. */
  test: { initial: { hard: number; soft: number }; best: { hard: number; soft: number } } | null;
  acceptedCandidates: number;
  rejectedCandidates: number;
  stageFailures: TrainingCounters['stageFailures'];
  excludedItems: Array<{ phase: string; itemId: string; code: string; message: string }>;
  rollouts: { run: number; cacheHits: number; retries: number };
  /** Model calls on the critical path, counted in waves of concurrent calls. */
  sequentialWaves: number;
  usage: LedgerTotals;
  bestSkillPath: string;
}
