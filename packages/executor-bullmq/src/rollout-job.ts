import type { RolloutPhase, RolloutResult } from '@skillopt/contract';
import type { SerializedRolloutError } from './serialized-rollout-error.js';

/**
 * What one rollout's job carries: enough for a worker to prepare the run and find the item and
 * the skill — never a credential (the config's secrets are dropped; workers use their own).
 */
export interface RolloutJobData {
  runId: string;
  /** The run's resolved config without its secrets, and its hash (a worker prepares each once). */
  config: Record<string, unknown>;
  configHash: string;
  /** The skill by hash; its text is in the run's skills hash in Redis. */
  skillHash: string;
  itemId: string;
  sampleIndex: number;
  phase?: RolloutPhase;
  /** The trainer's package and specification versions: a worker with others refuses the job. */
  versions: Readonly<Record<string, string>>;
}

/**
 * A job's return value. A rollout that threw still completes its job: the error travels back to
 * the trainer, which classifies it exactly as in process (BullMQ's own retries stay off; core
 * owns the retries).
 */
export type RolloutJobOutcome = {
  worker: string;
  /** The rollout's calls on the worker as latency slots (runtime-kit), for the trainer's critical path. */
  latencySlots?: number;
} & ({ result: RolloutResult } | { error: SerializedRolloutError });
