import { createHash } from 'node:crypto';
import { ERROR_CODES, type RolloutResult, redactSecrets, SkillOptError } from '@skillopt/contract';
import { dropConfigSecrets, type Executor, type Ledger, type RolloutTask, type RunEventEmitter } from '@skillopt/core';
import { latencySlotRecorder, sleep } from '@skillopt/runtime-kit';
import { type Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { openRedisConnection } from './redis-connection.js';
import {
  ABORT_CHANNEL,
  ACTIVE_RUNS_KEY,
  RUN_FINISHED_CHANNEL,
  runAbortedJobsKey,
  runHeartbeatKey,
  runLedgerStreamKey,
  runQueueName,
  runSkillsKey,
} from './redis-keys.js';
import type { RolloutJobData, RolloutJobOutcome } from './rollout-job.js';
import { rolloutJobId } from './rollout-job-id.js';
import { rebuildRolloutError } from './serialized-rollout-error.js';
import { startJobCounter } from './job-counter.js';
import { startWorkerLedgerReader } from './worker-ledger-reader.js';

export interface BullmqExecutorOptions {
  /** The Redis URL; it may carry credentials, which never appear in a message. */
  url: string;
  runId: string;
  /** The run's resolved config; its secrets are dropped before it goes into a job. */
  config: Record<string, unknown>;
  /** This trainer's package and specification versions; workers with others refuse the run's jobs. */
  versions: Readonly<Record<string, string>>;
  /** The most rollouts queued or running at once (default: no bound here; the workers' concurrency bounds the running ones). */
  maxRolloutsInFlight?: number;
  /** How often a job's state is looked at while the trainer waits for it (default 250 ms). */
  pollIntervalMs?: number;
  /** The run's ledger: the workers' paid calls are recorded in it, each with the worker that made it. */
  ledger?: Ledger;
  /** Receives a `rollout-jobs-counted` event as the counts change, and a `usage-recorded` event per worker call. */
  onEvent?: RunEventEmitter;
  /** How often the jobs are counted for `onEvent` (default 1000 ms). */
  countIntervalMs?: number;
  /** How long closing waits for Redis before it lets go (default 10 000 ms). */
  closeTimeoutMs?: number;
  /** How often the trainer refreshes the run's heartbeat in Redis (default 5000 ms). */
  heartbeatIntervalMs?: number;
  /** How long the heartbeat lives unless refreshed (default 30 000 ms): once it expires, workers leave the run's jobs queued. */
  heartbeatTtlMs?: number;
  /** Told when Redis becomes unreachable, comes back, or lost jobs that are then enqueued again. */
  onNotice?: (message: string) => void;
}

/** The executor, and how the trainer ends its use of Redis. */
export interface BullmqExecutor extends Executor {
  /**
   * Closes the connections. A finished run (`finished: true`) also removes its queue and keys and
   * tells the workers to tear it down; an unfinished one keeps its finished jobs for `--resume`.
   */
  close(options: { finished: boolean }): Promise<void>;
}

const WAITING_STATES = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

/**
 * Runs each rollout as a BullMQ job on Redis, one queue per run, for `skillopt worker` processes
 * to take. The job id is `<runId>-<sha256 of the rollout cache key>`: a job already finished for
 * the same rollout (a resumed run) is used as it is, and a rollout is never enqueued twice. The
 * trainer waits by looking at the job's state, so a Redis that restarted empty is noticed (the
 * job is gone) and the job enqueued again. A rollout's error comes back as the same kind of
 * error, so core retries, excludes or stops exactly as in process.
 */
export function createBullmqExecutor(options: BullmqExecutorOptions): BullmqExecutor {
  const { runId, versions } = options;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const notice = (message: string) => options.onNotice?.(message);
  const connection = openRedisConnection(options.url, {
    onUnreachable: notice,
    onBack: () => notice('Redis is reachable again; jobs it lost are enqueued again'),
  });
  const queue = new Queue<RolloutJobData, RolloutJobOutcome>(runQueueName(runId), { connection });
  // The queue's own connection errors are the connection's, already told once per outage.
  queue.on('error', () => undefined);
  const config = redactSecrets(dropConfigSecrets(options.config).config);
  const configHash = createHash('sha256').update(JSON.stringify(config)).digest('hex');
  const cancellations = new Set<Promise<void>>();
  const ledgerReader = options.ledger === undefined ? undefined : startWorkerLedgerReader(quietDuplicate(connection), runId, options.ledger, options.onEvent);
  const counter = options.onEvent === undefined ? undefined : startJobCounter(queue, options.onEvent, options.countIntervalMs ?? 1000);
  const heartbeatTtlMs = options.heartbeatTtlMs ?? 30_000;
  const setHeartbeat = () => connection.set(runHeartbeatKey(runId), String(process.pid), 'PX', heartbeatTtlMs);
  const beat = () => void setHeartbeat().catch(() => undefined);
  beat();
  const heartbeat = setInterval(beat, options.heartbeatIntervalMs ?? 5000);
  heartbeat.unref();

  async function enqueue(jobId: string, task: RolloutTask & { skillHash: string }): Promise<void> {
    // Written with every job, not once: a Redis that restarted empty has lost the run and its skills.
    await connection.sadd(ACTIVE_RUNS_KEY, runId);
    await setHeartbeat();
    await connection.hsetnx(runSkillsKey(runId), `skill:${task.skillHash}`, task.skill);
    await connection.srem(runAbortedJobsKey(runId), jobId);
    const data: RolloutJobData = {
      runId,
      config,
      configHash,
      skillHash: task.skillHash,
      itemId: task.item.id,
      sampleIndex: task.sampleIndex,
      ...(task.phase === undefined ? {} : { phase: task.phase }),
      versions,
    };
    await queue.add('rollout', data, { jobId, attempts: 1, removeOnComplete: false, removeOnFail: false });
  }

  /** The job's outcome once it has one; undefined while it waits or runs, or when Redis no longer has it. */
  async function outcomeOf(
    jobId: string,
  ): Promise<{ state: 'missing' | 'pending' } | { state: 'done'; outcome: RolloutJobOutcome } | { state: 'failed'; reason: string }> {
    const job: Job<RolloutJobData, RolloutJobOutcome> | undefined = await queue.getJob(jobId);
    if (job === undefined) return { state: 'missing' };
    const state = await job.getState();
    // The job was read before its state: one that finished in between is read again at the next look.
    if (state === 'completed') return job.returnvalue == null ? { state: 'pending' } : { state: 'done', outcome: job.returnvalue };
    if (state === 'failed') return job.failedReason == null ? { state: 'pending' } : { state: 'failed', reason: job.failedReason };
    if (state === 'unknown') return { state: 'missing' };
    return { state: 'pending' };
  }

  async function cancel(jobId: string): Promise<void> {
    const job = await queue.getJob(jobId);
    if (job === undefined) return;
    const state = await job.getState();
    if (WAITING_STATES.has(state)) {
      // A worker may take it in between: then it is active, and asked to stop instead.
      const removed = await job.remove().then(
        () => true,
        () => false,
      );
      if (removed) return;
    }
    if (state === 'completed' || state === 'failed') return;
    // Marked first: a worker taking the job after the message went out still sees it is aborted.
    await connection.sadd(runAbortedJobsKey(runId), jobId);
    await connection.publish(ABORT_CHANNEL, jobId);
  }

  function cancelInBackground(jobId: string): void {
    const cancellation = cancel(jobId).catch(() => undefined);
    cancellations.add(cancellation);
    void cancellation.finally(() => cancellations.delete(cancellation));
  }

  async function waitForOutcome(jobId: string, task: RolloutTask & { skillHash: string }): Promise<RolloutJobOutcome> {
    let enqueued = false;
    for (;;) {
      const found = await outcomeOf(jobId);
      if (!enqueued && isStale(found)) {
        // Left by an earlier session (a resumed run, an attempt that was aborted): only a scored
        // result is worth keeping; anything else is run again.
        await queue.remove(jobId).catch(() => undefined);
        continue;
      }
      if (found.state === 'done') return found.outcome;
      if (found.state === 'failed') {
        // Only what BullMQ itself failed gets here (a refused version, a job stalled too often):
        // the job is removed so that another attempt can enqueue it again.
        await queue.remove(jobId).catch(() => undefined);
        throw failedJobError(found.reason);
      }
      if (found.state === 'missing') {
        if (enqueued) notice(`the job of item "${task.item.id}" is no longer in Redis; it is enqueued again`);
        await enqueue(jobId, task);
        enqueued = true;
      }
      // Rejects with the signal's reason as soon as the run is aborted.
      await sleep(pollIntervalMs, task.signal);
    }
  }

  return {
    id: 'bullmq',
    maxRolloutsInFlight: options.maxRolloutsInFlight ?? Number.POSITIVE_INFINITY,
    async runRollout(task): Promise<RolloutResult> {
      if (task.signal.aborted) throw task.signal.reason;
      if (task.rolloutCacheKey === undefined || task.skillHash === undefined)
        throw new Error('the BullMQ executor needs each rollout task to carry its cache key and skill hash (core sets them in evaluateSkill)');
      const jobId = rolloutJobId(runId, task.rolloutCacheKey);
      // Bound to the chain of work that asked for the rollout, as a metered call here would be.
      const countLatencySlot = latencySlotRecorder();
      const keyed = { ...task, skillHash: task.skillHash };
      const onAbort = () => cancelInBackground(jobId);
      task.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const outcome = await waitForOutcome(jobId, keyed);
        counter?.countDone(outcome.worker);
        for (let slot = 0; slot < (outcome.latencySlots ?? 0); slot += 1) countLatencySlot();
        if ('result' in outcome && outcome.result.status === 'scored') return outcome.result;
        // Only a scored result is kept: after an errored one, the next attempt enqueues the rollout again.
        await queue.remove(jobId).catch(() => undefined);
        if ('result' in outcome) return outcome.result;
        throw rebuildRolloutError(outcome.error);
      } finally {
        task.signal.removeEventListener('abort', onAbort);
      }
    },
    async close({ finished }) {
      clearInterval(heartbeat);
      const cleanUp = async () => {
        await Promise.all(cancellations);
        await counter?.stop();
        await ledgerReader?.stop();
        // A stopped run's workers tear it down now rather than once its heartbeat expires.
        await connection.del(runHeartbeatKey(runId));
        if (finished) {
          await connection.del(runLedgerStreamKey(runId));
          await queue.obliterate({ force: true }).catch(() => undefined);
          await connection.del(runSkillsKey(runId));
          await connection.del(runAbortedJobsKey(runId));
          await connection.srem(ACTIVE_RUNS_KEY, runId);
          await connection.publish(RUN_FINISHED_CHANNEL, runId);
        }
        await queue.close();
      };
      // A Redis that is away when the run ends must not hold the trainer: what it still holds is
      // cleaned up by a resumed run, or stays until the queue is removed.
      let timer: NodeJS.Timeout | undefined;
      const cleanedUp = await Promise.race([
        cleanUp().then(
          () => true,
          () => false,
        ),
        new Promise<boolean>((resolve) => {
          timer = setTimeout(() => resolve(false), options.closeTimeoutMs ?? 10_000);
        }),
      ]);
      clearTimeout(timer);
      if (!cleanedUp) notice(`Redis did not answer while run ${runId} was closed; its jobs in Redis are left as they are`);
      connection.disconnect();
    },
  };
}

/**
 * A second connection to the same Redis: `duplicate` copies no listener, and ioredis prints every
 * error of a connection without one to stderr (many a second while Redis is away). The first
 * connection already tells of an outage once.
 */
function quietDuplicate(connection: Redis): Redis {
  const duplicate = connection.duplicate();
  duplicate.on('error', () => undefined);
  return duplicate;
}

/** Whether a finished job found before this attempt enqueued anything is of no use to it. */
function isStale(found: { state: string; outcome?: RolloutJobOutcome }): boolean {
  if (found.state === 'failed') return true;
  if (found.state !== 'done' || found.outcome === undefined) return false;
  return !('result' in found.outcome && found.outcome.result.status === 'scored');
}

/**
 * The error of a job BullMQ failed: one stalled too often (its workers died) is an infrastructure
 * failure worth another attempt; any other (a worker refused the run's versions) would fail on
 * every attempt, so it stops the run with what the worker said.
 */
function failedJobError(reason: string): SkillOptError {
  if (/stalled/i.test(reason))
    return new SkillOptError({
      code: ERROR_CODES.processCrashed,
      category: 'internal',
      retryable: true,
      message: `the rollout's workers stopped while running it: ${reason}`,
    });
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `a worker refused the rollout's job: ${reason}` });
}
