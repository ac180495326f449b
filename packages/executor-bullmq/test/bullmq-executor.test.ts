import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Environment, ProviderError, type RolloutContext, type RolloutResult, type Target, type TaskItem } from '@skillopt/contract';
import {
  createInProcessExecutor,
  createLedger,
  createMemoryRolloutCache,
  evaluateSkill,
  type Executor,
  type Ledger,
  type RunEventEmitter,
  type RunEventInput,
} from '@skillopt/core';
import { type LatencySlotTally, measureLatencySlots } from '@skillopt/runtime-kit';
import { Queue } from 'bullmq';
import { createBullmqExecutor, runWorker, type WorkerRun } from '../src/index';
import { runQueueName } from '../src/redis-keys';
import { startRedisServer, type TestRedisServer } from '../src/testing';

const items: TaskItem[] = ['alpha', 'beta', 'gamma', 'broken'].map((id) => ({ id, taskType: 'qa' }));
const target: Target = {
  kind: 'chat',
  model: {
    specificationVersion: 'v1',
    provider: 'none',
    modelId: 'none',
    generate: async () => ({ text: 'answer', usage: { inputTokens: 7, outputTokens: 2 }, finishReason: 'stop' }),
  },
};
const versions = { '@skillopt/core': '1.0.0', specification: 'v1' };

/** Scores an item by whether the skill names it; "broken" fails as a provider the backend already retried. */
function scoringEnvironment(onRollout: (item: TaskItem, context: RolloutContext) => Promise<void> = async () => undefined): Environment {
  return {
    specificationVersion: 'v1',
    id: 'scoring',
    targetKinds: ['chat'],
    taskTypes: ['qa'],
    initialSkill: async () => '',
    loadSplit: async () => items,
    async rollout(item, context): Promise<RolloutResult> {
      await onRollout(item, context);
      if (item.id === 'broken')
        throw new ProviderError({ code: 'provider-unavailable', provider: 'sim', message: 'the provider is down', retryable: true, attempts: 3 });
      const hard = context.skill.includes(item.id) ? 1 : 0;
      return { status: 'scored', id: item.id, taskType: item.taskType, hard, soft: hard, prediction: item.id };
    },
  };
}

describe('the BullMQ executor with a worker', () => {
  let redis: TestRedisServer;
  let workDirectory: string;
  const stops: Array<() => Promise<void>> = [];

  beforeAll(async () => {
    redis = await startRedisServer();
  });
  afterAll(async () => {
    await redis.stop();
  });
  beforeEach(() => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-bullmq-'));
  });
  afterEach(async () => {
    for (const stop of stops.splice(0)) await stop();
    rmSync(workDirectory, { recursive: true, force: true });
  });

  function startWorker(environment: Environment, workerVersions: Record<string, string> = versions, closed: string[] = []) {
    const controller = new AbortController();
    const stopped = runWorker({
      url: redis.url,
      concurrency: 2,
      signal: controller.signal,
      workDirectory,
      workerName: 'worker-1',
      discoveryIntervalMs: 20,
      prepareRun: async (request): Promise<WorkerRun> => ({
        versions: workerVersions,
        environment,
        target,
        findItem: (itemId) => items.find((item) => item.id === itemId),
        close: async () => {
          closed.push(request.runId);
        },
      }),
    });
    stops.push(async () => {
      controller.abort();
      await stopped;
    });
  }

  function evaluate(executor: Executor, environment: Environment, signal = new AbortController().signal) {
    return evaluateSkill({
      environment,
      skill: 'knows alpha and gamma',
      items,
      target,
      cache: createMemoryRolloutCache(),
      concurrency: 4,
      retries: 1,
      signal,
      phase: 'selection',
      workDirectory,
      executor,
    });
  }

  function createExecutor(runId: string, ledger?: Ledger, onEvent?: RunEventEmitter) {
    const executor = createBullmqExecutor({
      url: redis.url,
      runId,
      config: { env: { name: 'scoring', api_key: 'sk-never-sent-0123456789' } },
      versions,
      pollIntervalMs: 20,
      ...(ledger === undefined ? {} : { ledger }),
      ...(onEvent === undefined ? {} : { onEvent, countIntervalMs: 10 }),
    });
    stops.push(() => executor.close({ finished: true }));
    return executor;
  }

  it('gives the same scores and exclusions as in process, and carries no secret in a job', async () => {
    const environment = scoringEnvironment();
    startWorker(environment);
    const executor = createExecutor('run-same');
    const distributed = await evaluate(executor, environment);
    const inProcess = await evaluate(createInProcessExecutor({ maxRolloutsInFlight: 4 }), environment);
    expect(distributed.items).toEqual(inProcess.items);
    expect(distributed.items.map((item) => item.status)).toEqual(['scored', 'scored', 'scored', 'excluded']);
    expect(distributed.items[3]).toMatchObject({
      error: { code: 'provider-unavailable', message: 'the provider is down (after 3 attempts by the sim backend)' },
    });

    const queue = new Queue(runQueueName('run-same'), { connection: { url: redis.url } });
    const [job] = await queue.getJobs(['completed']);
    await queue.close();
    expect(job?.data.config).toEqual({ env: { name: 'scoring' } });
    expect(job?.returnvalue.worker).toBe('worker-1');
    expect(JSON.stringify(job?.data)).not.toContain('sk-never-sent');
  });

  it("records every paid call a worker made in the trainer's ledger, with the worker's name, and counts the jobs per worker", async () => {
    const environment = scoringEnvironment(async (_item, context) => {
      if (context.target.kind === 'chat') await context.target.model.generate({ messages: [{ role: 'user', content: 'question' }], purpose: 'rollout' });
    });
    startWorker(environment);
    const ledger = createLedger({});
    const events: RunEventInput[] = [];
    const executor = createExecutor('run-ledger', ledger, (event) => events.push(event));
    const tally: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(tally, () => evaluate(executor, environment));
    // Four rollouts side by side, one call each: one latency slot on the trainer's critical path.
    expect(tally.slots).toBe(1);
    await executor.close({ finished: true });
    stops.pop();
    expect(events.filter((event) => event.type === 'usage-recorded')).toHaveLength(4);
    const counts = events.filter((event) => event.type === 'rollout-jobs-counted');
    expect(counts.at(-1)).toEqual({ type: 'rollout-jobs-counted', queued: 0, workers: [{ worker: 'worker-1', running: 0, done: 4 }] });
    // One call per item ("broken" fails after its call, and is excluded without another attempt).
    expect(ledger.entries().map((entry) => [entry.worker, entry.outcome, entry.usage.inputTokens])).toEqual(
      Array.from({ length: 4 }, () => ['worker-1', 'succeeded', 7]),
    );
  });

  it('a resumed trainer takes the scored results of finished jobs and runs only the rest again', async () => {
    const rolledOut: string[] = [];
    const environment = scoringEnvironment(async (item) => {
      rolledOut.push(item.id);
    });
    startWorker(environment);
    const first = await evaluate(createExecutor('run-resumed'), environment);
    expect(rolledOut.sort()).toEqual(['alpha', 'beta', 'broken', 'gamma']);
    rolledOut.length = 0;
    const resumed = await evaluate(createExecutor('run-resumed'), environment);
    expect(rolledOut).toEqual(['broken']);
    expect(resumed.items).toEqual(first.items);
  });

  it('lets go of a Redis that is away when the run is closed, and says so', async () => {
    const lost = await startRedisServer();
    const notices: string[] = [];
    const executor = createBullmqExecutor({
      url: lost.url,
      runId: 'run-lost',
      config: {},
      versions,
      closeTimeoutMs: 50,
      onNotice: (notice) => notices.push(notice),
    });
    await lost.kill();
    await executor.close({ finished: true });
    await lost.stop();
    expect(notices).toContain('Redis did not answer while run run-lost was closed; its jobs in Redis are left as they are');
  });

  it('stops the run with what differs when a worker runs other versions', async () => {
    const environment = scoringEnvironment();
    startWorker(environment, { ...versions, '@skillopt/core': '0.9.0' });
    const executor = createExecutor('run-versions');
    await expect(evaluate(executor, environment)).rejects.toThrow(
      "a worker refused the rollout's job: worker-1: this worker's versions differ from the run's (@skillopt/core 1.0.0 on the trainer, 0.9.0 on this worker)",
    );
  });

  it('removes waiting jobs and aborts the running ones when the run is aborted, and tears the run down when it finishes', async () => {
    const started: string[] = [];
    const aborted: string[] = [];
    const closed: string[] = [];
    const environment = scoringEnvironment(
      (item, context) =>
        new Promise((_resolve, reject) => {
          started.push(item.id);
          context.signal.addEventListener('abort', () => {
            aborted.push(item.id);
            reject(context.signal.reason);
          });
        }),
    );
    startWorker(environment, versions, closed);
    const executor = createExecutor('run-abort');
    const controller = new AbortController();
    const evaluation = evaluate(executor, environment, controller.signal);
    const queue = new Queue(runQueueName('run-abort'), { connection: { url: redis.url } });
    // Closed after the test however it ends: an open queue would reconnect to the stopped Redis forever.
    stops.push(() => queue.close());
    while (started.length < 2 || (await queue.getWaitingCount()) < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    controller.abort(new Error('stopped by the user'));
    await expect(evaluation).rejects.toThrow('stopped by the user');
    while (aborted.length < 2) await new Promise((resolve) => setTimeout(resolve, 10));
    expect((await queue.getJobCounts('waiting', 'active')).waiting).toBe(0);
    expect(started).toHaveLength(2);
    expect(aborted.sort()).toEqual([...started].sort());

    const finishing = createExecutor('run-abort');
    await finishing.close({ finished: true });
    stops.pop();
    while (closed.length === 0) await new Promise((resolve) => setTimeout(resolve, 10));
    expect(closed).toEqual(['run-abort']);
  });
});
