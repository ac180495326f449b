/**
 * Where a run lives in Redis. BullMQ keeps each run's jobs in a queue of its own (under its
 * `bull:` prefix); the rest is ours, under `skillopt:`.
 */

/** The BullMQ queue of one run's rollouts. */
export function runQueueName(runId: string): string {
  return `skillopt-run-${runId}`;
}

/** The ids of the runs whose rollouts workers should take: a set the trainer adds its run to. */
export const ACTIVE_RUNS_KEY = 'skillopt:runs';

/** A hash per run: `skill:<hash>` → the skill's text, stored once however many rollouts use it. */
export function runSkillsKey(runId: string): string {
  return `skillopt:run:${runId}:skills`;
}

/**
 * Set by the trainer with a time to live and refreshed while it runs: a run whose key expired was
 * abandoned (its trainer killed), and workers take none of its jobs until a resumed trainer sets it again.
 */
export function runHeartbeatKey(runId: string): string {
  return `skillopt:run:${runId}:heartbeat`;
}

/** The Redis stream a run's workers append their ledger lines to, for the trainer to read. */
export function runLedgerStreamKey(runId: string): string {
  return `skillopt:run:${runId}:ledger`;
}

/**
 * The ids of a run's jobs the trainer aborted, kept beside the message on ABORT_CHANNEL: a worker
 * that takes such a job just as it is aborted (after the message went out, before the job was
 * its own) finds the mark and does not start the rollout. A job asked for again is unmarked.
 */
export function runAbortedJobsKey(runId: string): string {
  return `skillopt:run:${runId}:aborted`;
}

/** Where the trainer publishes the id of an active job to abort. */
export const ABORT_CHANNEL = 'skillopt:abort';

/** Where the trainer publishes the id of a run that has finished, for workers to tear it down. */
export const RUN_FINISHED_CHANNEL = 'skillopt:run-finished';
