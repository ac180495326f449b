import type { CallWarning, ModelRole, Usage } from '@skillopt/contract';

/**
 * One of a worker's paid calls, as it travels to the trainer's ledger through the run's Redis
 * stream: its start before the request leaves the worker, then how it finished. A worker killed
 * mid-call leaves a start without a finish, which the trainer still records.
 */
export type WorkerLedgerLine =
  | {
      kind: 'started';
      /** Unique across the run's workers; pairs the finish with its start. */
      callId: string;
      role: ModelRole;
      purpose: string;
      provider: string;
      modelId: string;
      estimatedUsage: Usage;
      worker: string;
    }
  | {
      kind: 'finished';
      callId: string;
      outcome: 'succeeded' | 'failed';
      usage: Usage;
      latencyMs: number;
      errorCode?: string;
      warnings?: CallWarning[];
    };
