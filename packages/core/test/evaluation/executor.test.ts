import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Environment, RolloutResult, TaskItem } from '@skillopt/contract';
import { createInProcessExecutor, createMemoryRolloutCache, evaluateSkill, type RolloutTask, rolloutCacheKeyText, skillHash } from '../../src/index';

const items: TaskItem[] = Array.from({ length: 6 }, (_, index) => ({ id: `item-${index}`, taskType: 'qa' }));
const target = {
  kind: 'chat' as const,
  model: { specificationVersion: 'v1' as const, provider: 'none', modelId: 'none', generate: () => Promise.reject(new Error('unused')) },
};

/** An env whose rollouts wait until released, counting how many run at once. */
function gatedEnvironment() {
  let running = 0;
  let mostAtOnce = 0;
  const waiting: Array<() => void> = [];
  const environment: Environment = {
    specificationVersion: 'v1',
    id: 'gated',
    targetKinds: ['chat'],
    taskTypes: ['qa'],
    initialSkill: async () => '',
    loadSplit: async () => items,
    async rollout(item): Promise<RolloutResult> {
      running += 1;
      mostAtOnce = Math.max(mostAtOnce, running);
      await new Promise<void>((resolve) => waiting.push(resolve));
      running -= 1;
      return { status: 'scored', id: item.id, taskType: item.taskType, hard: 1, soft: 1, prediction: '' };
    },
  };
  return {
    environment,
    mostAtOnce: () => mostAtOnce,
    started: () => waiting.length,
    releaseAll: () => {
      for (const release of waiting.splice(0)) release();
    },
  };
}

const flush = () => new Promise((resolve) => setImmediate(resolve));

describe('the in-process executor', () => {
  let workDirectory: string;
  beforeEach(() => {
    workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-executor-'));
  });
  afterEach(() => rmSync(workDirectory, { recursive: true, force: true }));

  it('bounds the rollouts in flight across evaluations that share it', async () => {
    const gated = gatedEnvironment();
    const executor = createInProcessExecutor({ maxRolloutsInFlight: 3 });
    const evaluate = (skill: string) =>
      evaluateSkill({
        environment: gated.environment,
        skill,
        items,
        target,
        cache: createMemoryRolloutCache(),
        concurrency: 6,
        retries: 0,
        signal: new AbortController().signal,
        phase: 'selection',
        workDirectory,
        executor,
      });
    const both = Promise.all([evaluate('candidate'), evaluate('incumbent')]);
    for (let round = 0; round < 8 && gated.started() < 12; round++) {
      await flush();
      expect(gated.started()).toBeLessThanOrEqual(3);
      gated.releaseAll();
      await flush();
    }
    const [candidate, incumbent] = await both;
    expect(candidate.summary.scoredCount + incumbent.summary.scoredCount).toBe(12);
    expect(gated.mostAtOnce()).toBe(3);
  });

  it('never starts a queued rollout once the run is aborted', async () => {
    const gated = gatedEnvironment();
    const executor = createInProcessExecutor({ maxRolloutsInFlight: 2 });
    const controller = new AbortController();
    const evaluation = evaluateSkill({
      environment: gated.environment,
      skill: 's',
      items,
      target,
      cache: createMemoryRolloutCache(),
      concurrency: 6,
      retries: 0,
      signal: controller.signal,
      phase: 'selection',
      workDirectory,
      executor,
    });
    await flush();
    expect(gated.started()).toBe(2);
    controller.abort(new Error('stopped'));
    await expect(evaluation).rejects.toThrow('stopped');
    gated.releaseAll();
    await flush();
    expect(gated.started()).toBe(0);
    expect(gated.mostAtOnce()).toBe(2);
  });

  it("hands an executor each rollout's cache key and skill hash, so a distributed one can name its job", async () => {
    const tasks: RolloutTask[] = [];
    const inProcess = createInProcessExecutor({ maxRolloutsInFlight: 2 });
    const recording = {
      ...inProcess,
      runRollout(task: RolloutTask) {
        tasks.push(task);
        return inProcess.runRollout(task);
      },
    };
    const gated = gatedEnvironment();
    const evaluation = evaluateSkill({
      environment: gated.environment,
      skill: 'the skill',
      items: items.slice(0, 1),
      target,
      sampleIndex: 2,
      cache: createMemoryRolloutCache(),
      concurrency: 1,
      retries: 0,
      signal: new AbortController().signal,
      phase: 'selection',
      workDirectory,
      executor: recording,
    });
    await flush();
    gated.releaseAll();
    await evaluation;
    expect(tasks.map((task) => [task.rolloutCacheKey, task.skillHash])).toEqual([
      [rolloutCacheKeyText({ skillHash: skillHash('the skill'), itemId: 'item-0', sampleIndex: 2, targetModelId: 'chat:none/none' }), skillHash('the skill')],
    ]);
  });

  it('refuses a bound that is not a positive whole number', () => {
    expect(() => createInProcessExecutor({ maxRolloutsInFlight: 0 })).toThrow(/positive integer/);
  });
});
