import { hostname } from 'node:os';
import { ERROR_CODES, type Environment, SkillOptError, type Target, type TaskItem } from '@skillopt/contract';
import { createInProcessExecutor, meterAgentRunner, meterChatModel } from '@skillopt/core';
import { type LatencySlotTally, measureLatencySlots } from '@skillopt/runtime-kit';
import { UnrecoverableError, Worker } from 'bullmq';
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
import { serializeRolloutError } from './serialized-rollout-error.js';
import { createStreamingLedger } from './streaming-ledger.js';
import { describeVersionMismatch } from './version-mismatch.js';

/**
 * A run as a worker prepared it: its env and target made here, with this machine's credentials.
 * The worker meters the target itself: every call goes to the trainer's ledger.
 */
export interface WorkerRun {
  environment: Environment;
  target: Target;
  /** The item of this id from the worker's own copy of the datasets. */
  findItem(itemId: string): TaskItem | undefined;
  /** This worker's package and specification versions for the run (`runVersions`): a job of a trainer with others is refused. */
  versions: Readonly<Record<string, string>>;
  /** Releases what preparing it took; called when the run finishes or the worker stops. */
  close?(): Promise<void>;
}

/** What a worker is given to prepare a run from its first job. */
export interface WorkerRunRequest {
  runId: string;
  /** The run's resolved config, without secrets. */
  config: Record<string, unknown>;
  configHash: string;
}

export interface RunWorkerOptions {
  /** The Redis URL; it may carry credentials, which never appear in a message. */
  url: string;
  /** Rollouts run at once, per run. */
  concurrency: number;
  /**
   * Aborting it stops taking jobs; the running rollouts finish first, then the worker lets go of
   * Redis, waiting for it at most `closeTimeoutMs`.
   */
  signal: AbortSignal;
  /** How long stopping waits for Redis once the running rollouts ended (default 10 000 ms). */
  closeTimeoutMs?: number;
  /** Prepares a run (once per run and config hash), e.g. with core's `prepareRun`. */
  prepareRun(request: WorkerRunRequest): Promise<WorkerRun>;
  /** The parent of the rollouts' work directories. */
  workDirectory: string;
  /** What the ledger and the events call this worker (default `<host>:<pid>`). */
  workerName?: string;
  /** How often the set of active runs and their trainers' heartbeats are read (default 1000 ms). */
  discoveryIntervalMs?: number;
  /** BullMQ's lock on an active job and its stalled-job check (defaults 30 000 and 30 000 ms). */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Told when Redis is unreachable, comes back, or a run is taken up or torn down. */
  onNotice?: (message: string) => void;
}

/**
 * Takes the rollout jobs of every active run from Redis until `signal` aborts. Each run is
 * prepared once per config hash from the config its jobs carry; a job whose trainer runs other
 * package or specification versions fails unrecoverably with what differs. A rollout's error
 * completes the job with that error, for the trainer to classify; the worker goes on. When the
 * trainer announces the run finished, its BullMQ worker and its prepared parts are torn down.
 */
export async function runWorker(options: RunWorkerOptions): Promise<void> {
  const workerName = options.workerName ?? `${hostname()}:${process.pid}`;
  const notice = (message: string) => options.onNotice?.(message);
  const connection = openRedisConnection(options.url, { onUnreachable: notice, onBack: () => notice('Redis is reachable again') });
  const subscriber = connection.duplicate();
  subscriber.on('error', () => undefined);
  const runWorkers = new Map<string, Worker<RolloutJobData, RolloutJobOutcome>>();
  const preparedRuns = new Map<string, Promise<WorkerRun>>();
  const activeJobs = new Map<string, AbortController>();
  /** Told each time a rollout ends, for a stop that waits for the running ones. */
  let onRolloutEnded: () => void = () => undefined;
  const executor = createInProcessExecutor({ maxRolloutsInFlight: Number.POSITIVE_INFINITY });

  function preparedRunFor(data: RolloutJobData): Promise<WorkerRun> {
    const key = `${data.runId}\n${data.configHash}`;
    let prepared = preparedRuns.get(key);
    if (prepared === undefined) {
      prepared = options.prepareRun({ runId: data.runId, config: data.config, configHash: data.configHash }).then((run) => ({
        ...run,
        target: meteredTarget(run.target, data.runId),
      }));
      // A preparation that failed is tried again by the next job, not cached.
      prepared.catch(() => preparedRuns.delete(key));
      preparedRuns.set(key, prepared);
    }
    return prepared;
  }

  function meteredTarget(target: Target, runId: string): Target {
    const ledger = createStreamingLedger(async (line) => {
      await connection.xadd(runLedgerStreamKey(runId), '*', 'line', JSON.stringify(line));
    }, workerName);
    return target.kind === 'chat'
      ? { kind: 'chat', model: meterChatModel(target.model, { role: 'target', ledger }) }
      : { kind: 'agent', runner: meterAgentRunner(target.runner, { role: 'target', ledger }) };
  }

  async function processJob(job: { id?: string | undefined; data: RolloutJobData }): Promise<RolloutJobOutcome> {
    const { data } = job;
    const controller = new AbortController();
    // The rollout's own critical path in calls: its metered calls count into it.
    const tally: LatencySlotTally = { slots: 0, calls: 0 };
    const jobId = job.id ?? '';
    activeJobs.set(jobId, controller);
    try {
      // Aborted before it was this worker's: the trainer's message may have gone out before the job was in activeJobs.
      if (await connection.sismember(runAbortedJobsKey(data.runId), jobId)) controller.abort(abortedByTrainer());
      const run = await preparedRunFor(data);
      const mismatch = describeVersionMismatch(data.versions, run.versions);
      if (mismatch !== undefined) throw new UnrecoverableError(`${workerName}: ${mismatch}`);
      const skill = await connection.hget(runSkillsKey(data.runId), `skill:${data.skillHash}`);
      if (skill === null)
        throw new SkillOptError({
          code: ERROR_CODES.dataInvalid,
          category: 'internal',
          retryable: true,
          message: `the text of skill ${data.skillHash} is not in Redis`,
        });
      const item = run.findItem(data.itemId);
      if (item === undefined)
        throw new SkillOptError({
          code: ERROR_CODES.dataInvalid,
          category: 'user',
          message: `the worker ${workerName} has no item "${data.itemId}" in its datasets of the env "${run.environment.id}": every worker needs the same datasets, at the paths the config names`,
        });
      const result = await measureLatencySlots(tally, () =>
        executor.runRollout({
          environment: run.environment,
          item,
          skill,
          target: run.target,
          sampleIndex: data.sampleIndex,
          ...(data.phase === undefined ? {} : { phase: data.phase }),
          workDirectory: options.workDirectory,
          signal: controller.signal,
        }),
      );
      return { worker: workerName, latencySlots: tally.slots, result };
    } catch (error) {
      if (error instanceof UnrecoverableError) throw error;
      return { worker: workerName, latencySlots: tally.slots, error: serializeRolloutError(error) };
    } finally {
      activeJobs.delete(jobId);
      onRolloutEnded();
    }
  }

  function takeUpRun(runId: string): void {
    if (runWorkers.has(runId) || options.signal.aborted) return;
    const worker = new Worker<RolloutJobData, RolloutJobOutcome>(runQueueName(runId), processJob, {
      connection,
      // Recorded as the job's `processedBy`: the trainer counts each worker's running jobs by it.
      name: workerName,
      concurrency: options.concurrency,
      ...(options.lockDurationMs === undefined ? {} : { lockDuration: options.lockDurationMs }),
      ...(options.stalledIntervalMs === undefined ? {} : { stalledInterval: options.stalledIntervalMs }),
    });
    worker.on('error', () => undefined);
    runWorkers.set(runId, worker);
    notice(`taking the rollouts of run ${runId}`);
  }

  async function tearDownRun(runId: string, reason = 'finished'): Promise<void> {
    const worker = runWorkers.get(runId);
    runWorkers.delete(runId);
    await worker?.close();
    for (const [key, prepared] of [...preparedRuns]) {
      if (!key.startsWith(`${runId}\n`)) continue;
      preparedRuns.delete(key);
      await prepared.then((run) => run.close?.()).catch(() => undefined);
    }
    if (worker !== undefined) notice(`run ${runId} ${reason}; its prepared parts are torn down`);
  }

  /**
   * Takes up the runs whose trainers beat, and tears down those whose heartbeat expired (their
   * trainer was killed): their queued jobs stay in Redis for a resumed trainer, which beats again.
   */
  async function discoverRuns(): Promise<void> {
    const runIds = await connection.smembers(ACTIVE_RUNS_KEY).catch(() => undefined);
    if (runIds === undefined || runIds.length === 0) return;
    const beating = await connection.mget(runIds.map(runHeartbeatKey)).catch(() => undefined);
    if (beating === undefined) return;
    runIds.forEach((runId, index) => {
      if (beating[index] !== null) takeUpRun(runId);
      else if (runWorkers.has(runId)) void tearDownRun(runId, "has no trainer (its heartbeat expired); its queued jobs wait for the run's resume");
    });
  }

  subscriber.on('message', (channel: string, message: string) => {
    if (channel === ABORT_CHANNEL) activeJobs.get(message)?.abort(abortedByTrainer());
    else if (channel === RUN_FINISHED_CHANNEL) void tearDownRun(message);
  });
  await subscriber.subscribe(ABORT_CHANNEL, RUN_FINISHED_CHANNEL);
  await discoverRuns();
  const discovery = setInterval(() => void discoverRuns(), options.discoveryIntervalMs ?? 1000);

  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  clearInterval(discovery);
  const stoppingWorkers = [...runWorkers.values()];
  // Closing a BullMQ worker stops it fetching jobs at once; the rollouts it runs go on.
  const tearDowns = Promise.all([...runWorkers.keys()].map((runId) => tearDownRun(runId).catch(() => undefined)));
  await new Promise<void>((resolve) => {
    onRolloutEnded = () => {
      if (activeJobs.size === 0) resolve();
    };
    onRolloutEnded();
  });
  // Storing the last results and closing needs Redis: a Redis that is away is not waited for long.
  // A job whose result was not stored is taken again by another worker once its lock expires.
  const closeTimeoutMs = options.closeTimeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    tearDowns.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), closeTimeoutMs);
    }),
  ]);
  clearTimeout(timer);
  if (!closed) {
    notice(`Redis did not answer within ${closeTimeoutMs} ms while the worker stopped; it stops without it`);
    for (const worker of stoppingWorkers) void worker.disconnect().catch(() => undefined);
  }
  subscriber.disconnect();
  connection.disconnect();
}

function abortedByTrainer(): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.aborted, category: 'user', message: 'the trainer aborted the rollout' });
}
