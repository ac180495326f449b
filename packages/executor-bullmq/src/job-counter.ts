import type { RunEventEmitter } from '@skillopt/core';
import type { Queue } from 'bullmq';

/** Counts a run's jobs for the `rollout-jobs-counted` event until stopped. */
export interface JobCounter {
  /** A job's outcome came back from `worker`. */
  countDone(worker: string): void;
  /** Stops counting after a last count, so the last event has every outcome. */
  stop(): Promise<void>;
}

/**
 * Every `intervalMs`, the jobs waiting in the run's queue and, per worker, the jobs it runs now
 * (BullMQ records the worker as the job's `processedBy`) and those whose outcome came back from
 * it; emitted when they changed since the last event.
 */
export function startJobCounter(queue: Queue, emit: RunEventEmitter, intervalMs: number): JobCounter {
  const done = new Map<string, number>();
  let lastCounts = '';
  let counting = false;

  async function count(): Promise<void> {
    const [queued, active] = await Promise.all([queue.getWaitingCount(), queue.getJobs(['active'])]);
    const running = new Map<string, number>();
    for (const job of active) if (job.processedBy !== undefined) running.set(job.processedBy, (running.get(job.processedBy) ?? 0) + 1);
    const workers = [...new Set([...done.keys(), ...running.keys()])]
      .sort()
      .map((worker) => ({ worker, running: running.get(worker) ?? 0, done: done.get(worker) ?? 0 }));
    const counts = JSON.stringify([queued, workers]);
    if (counts === lastCounts) return;
    lastCounts = counts;
    emit({ type: 'rollout-jobs-counted', queued, workers });
  }

  const timer = setInterval(() => {
    // One count at a time: a Redis that is away holds a count until it is back.
    if (counting) return;
    counting = true;
    void count()
      .catch(() => undefined)
      .finally(() => {
        counting = false;
      });
  }, intervalMs);
  timer.unref();
  return {
    countDone(worker) {
      done.set(worker, (done.get(worker) ?? 0) + 1);
    },
    async stop() {
      clearInterval(timer);
      await count().catch(() => undefined);
    },
  };
}
