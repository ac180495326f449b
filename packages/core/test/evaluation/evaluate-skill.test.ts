import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES, ProviderError, SkillOptError, type RolloutResult } from '@skillopt/contract';
import { createRetryableProviderErrorForTests } from '@skillopt/env-kit/testing';
import { evaluateSkill, type EvaluateSkillOptions, type ItemRolledOutReport } from '../../src/evaluation/index.js';
import { createMemoryRolloutCache } from '../../src/rollout-cache/rollout-cache.js';
import { skillHash } from '../../src/skill-hash.js';
import {
  createIdleTargetForTests,
  createScriptedEnvironmentForTests,
  deferred,
  erroredResult,
  makeItems,
  scoredResult,
  waitUntil,
  type Deferred,
  type RolloutScript,
} from './evaluation-test-doubles.js';

let workRoot: string;
beforeEach(async () => {
  workRoot = await mkdtemp(path.join(os.tmpdir(), 'skillopt-evaluate-'));
});
afterEach(async () => {
  await rm(workRoot, { recursive: true, force: true });
});

const SKILL = '# Skill\nAnswer briefly.\n';

function options(script: RolloutScript, overrides: Partial<EvaluateSkillOptions> = {}) {
  const environment = createScriptedEnvironmentForTests(script);
  const reports: ItemRolledOutReport[] = [];
  const base: EvaluateSkillOptions = {
    environment,
    skill: SKILL,
    items: makeItems(4),
    target: createIdleTargetForTests(),
    cache: createMemoryRolloutCache(),
    concurrency: 2,
    retries: 2,
    signal: new AbortController().signal,
    phase: 'selection',
    onItem: (report) => reports.push(report),
    workDirectory: path.join(workRoot, 'rollouts'),
    ...overrides,
  };
  return { environment, reports, options: base };
}

/** Item i passes when i is even; soft is 0.5 more often. */
const evenItemsPass: RolloutScript = (item) => {
  const index = Number(item.id.split('-')[1]);
  return scoredResult(item, index % 2 === 0 ? 1 : 0, index % 2 === 0 ? 1 : 0.5);
};

describe('evaluateSkill: scoring and reporting', () => {
  it('rolls every item out once and reports means over scored items', async () => {
    const { environment, reports, options: evaluateOptions } = options(evenItemsPass);
    const evaluation = await evaluateSkill(evaluateOptions);

    expect(environment.calls).toHaveLength(4);
    expect(evaluation.items.map((item) => item.itemId)).toEqual(['item-0', 'item-1', 'item-2', 'item-3']);
    expect(evaluation.summary).toEqual({ meanHard: 0.5, meanSoft: 0.75, scoredCount: 4, excludedCount: 0, nothingScored: false });
    expect(evaluation.counters).toEqual({ rolloutsRun: 4, cacheHits: 0, retries: 0, excludedItems: 0 });
    expect(evaluation.skillHash).toBe(skillHash(SKILL));
    expect(evaluation.targetModelId).toBe('chat:test-double/idle-test-double-model');
    expect(reports.map((report) => report.completed).sort()).toEqual([1, 2, 3, 4]);
    expect(reports.every((report) => report.total === 4 && report.phase === 'selection' && !report.cached)).toBe(true);
    expect(reports.find((report) => report.itemId === 'item-1')).toMatchObject({ hard: 0, soft: 0.5, sampleIndex: 0, skillHash: skillHash(SKILL) });
  });

  it('gives every attempt a fresh work directory on first use, the same path on every call, removed afterwards', async () => {
    const seenExisting: boolean[] = [];
    const directories: string[] = [];
    const { environment, options: evaluateOptions } = options(async (item, context, attempt) => {
      const directory = await context.workDirectory();
      seenExisting.push(existsSync(directory));
      expect(await context.workDirectory()).toBe(directory);
      directories.push(directory);
      return attempt === 1 ? erroredResult(item) : scoredResult(item, 1);
    });
    await evaluateSkill(evaluateOptions);
    expect(environment.calls).toHaveLength(8);
    expect(directories).toHaveLength(8);
    expect(new Set(directories).size).toBe(8);
    expect(seenExisting.every(Boolean)).toBe(true);
    await waitUntil(() => directories.every((directory) => !existsSync(directory)));
    expect(directories.every((directory) => directory.startsWith(path.join(workRoot, 'rollouts')))).toBe(true);
  });

  it('creates no work directory for an env that never asks for one', async () => {
    const { options: evaluateOptions } = options((item) => scoredResult(item, 1));
    await evaluateSkill(evaluateOptions);
    expect(existsSync(path.join(workRoot, 'rollouts'))).toBe(false);
  });

  it('returns results in item order whatever order the rollouts complete in', async () => {
    const pending = new Map<string, Deferred<RolloutResult>>();
    const {
      environment,
      reports,
      options: evaluateOptions,
    } = options(
      (item) => {
        const gate = deferred<RolloutResult>();
        pending.set(item.id, gate);
        return gate.promise;
      },
      { concurrency: Number.POSITIVE_INFINITY },
    );
    const evaluation = evaluateSkill(evaluateOptions);
    await waitUntil(() => environment.calls.length === 4);
    // Complete in reverse order, letting each completion be observed before the next.
    for (const itemId of ['item-3', 'item-2', 'item-1', 'item-0']) {
      const item = makeItems(4).find((candidate) => candidate.id === itemId);
      pending.get(itemId)?.resolve(scoredResult(item!, itemId === 'item-3' ? 1 : 0));
      await waitUntil(() => reports.some((report) => report.itemId === itemId));
    }
    const result = await evaluation;
    expect(reports.map((report) => report.itemId)).toEqual(['item-3', 'item-2', 'item-1', 'item-0']);
    expect(result.items.map((item) => item.itemId)).toEqual(['item-0', 'item-1', 'item-2', 'item-3']);
    expect(result.items.map((item) => (item.status === 'scored' ? item.hard : -1))).toEqual([0, 0, 0, 1]);
  });

  it('reports nothing scored as means of 0 with a flag, never as a measured 0', async () => {
    const { options: evaluateOptions } = options((item) => erroredResult(item), { retries: 0 });
    const evaluation = await evaluateSkill(evaluateOptions);
    expect(evaluation.summary).toEqual({ meanHard: 0, meanSoft: 0, scoredCount: 0, excludedCount: 4, nothingScored: true });
  });

  it('treats an empty item list as nothing scored, without rolling anything out', async () => {
    const { environment, options: evaluateOptions } = options(evenItemsPass, { items: [] });
    const evaluation = await evaluateSkill(evaluateOptions);
    expect(environment.calls).toHaveLength(0);
    expect(evaluation.summary.nothingScored).toBe(true);
  });
});

describe('evaluateSkill: the rollout cache', () => {
  it('answers a second evaluation of the same skill from the cache at no rollout cost', async () => {
    const cache = createMemoryRolloutCache();
    const first = options(evenItemsPass, { cache });
    await evaluateSkill(first.options);
    const second = options(evenItemsPass, { cache });
    const evaluation = await evaluateSkill(second.options);

    expect(second.environment.calls).toHaveLength(0);
    expect(evaluation.counters).toEqual({ rolloutsRun: 0, cacheHits: 4, retries: 0, excludedItems: 0 });
    expect(evaluation.summary.meanHard).toBe(0.5);
    expect(evaluation.items.every((item) => item.status === 'scored' && item.cached && item.attempts === 0)).toBe(true);
    expect(second.reports.every((report) => report.cached)).toBe(true);
  });

  it('keys the cache by skill, sample index and target model', async () => {
    const cache = createMemoryRolloutCache();
    await evaluateSkill(options(evenItemsPass, { cache }).options);

    const otherSkill = options(evenItemsPass, { cache, skill: `${SKILL}Be careful.\n` });
    await evaluateSkill(otherSkill.options);
    expect(otherSkill.environment.calls).toHaveLength(4);

    const otherSample = options(evenItemsPass, { cache, sampleIndex: 1 });
    await evaluateSkill(otherSample.options);
    expect(otherSample.environment.calls.map((call) => call.sampleIndex)).toEqual([1, 1, 1, 1]);

    const otherModel = options(evenItemsPass, { cache, target: createIdleTargetForTests('another-model') });
    await evaluateSkill(otherModel.options);
    expect(otherModel.environment.calls).toHaveLength(4);

    const sameAsFirst = options(evenItemsPass, { cache });
    await evaluateSkill(sameAsFirst.options);
    expect(sameAsFirst.environment.calls).toHaveLength(0);
  });

  it('pays only for the items the cache does not hold', async () => {
    const cache = createMemoryRolloutCache();
    await evaluateSkill(options(evenItemsPass, { cache, items: makeItems(2) }).options);
    const wider = options(evenItemsPass, { cache, items: makeItems(4) });
    const evaluation = await evaluateSkill(wider.options);
    expect(wider.environment.calls.map((call) => call.itemId).sort()).toEqual(['item-2', 'item-3']);
    expect(evaluation.counters).toMatchObject({ rolloutsRun: 2, cacheHits: 2 });
  });
});

describe('evaluateSkill: infrastructure failures', () => {
  it('retries an errored result and scores the item once it succeeds', async () => {
    const { environment, options: evaluateOptions } = options((item, _context, attempt) =>
      item.id === 'item-1' && attempt < 3 ? erroredResult(item) : scoredResult(item, 1),
    );
    const evaluation = await evaluateSkill(evaluateOptions);
    expect(environment.callsFor('item-1')).toBe(3);
    expect(evaluation.counters).toEqual({ rolloutsRun: 6, cacheHits: 0, retries: 2, excludedItems: 0 });
    expect(evaluation.items[1]).toMatchObject({ status: 'scored', hard: 1, attempts: 3 });
  });

  it('excludes an item whose failure persists after the retries, and never counts it as a failed task', async () => {
    const {
      environment,
      reports,
      options: evaluateOptions,
    } = options((item) => (item.id === 'item-1' ? erroredResult(item, ERROR_CODES.providerTimeout) : scoredResult(item, 1)));
    const evaluation = await evaluateSkill(evaluateOptions);

    expect(environment.callsFor('item-1')).toBe(3); // one attempt + 2 retries
    expect(evaluation.items[1]).toEqual({
      status: 'excluded',
      itemId: 'item-1',
      sampleIndex: 0,
      error: { code: ERROR_CODES.providerTimeout, message: 'simulated provider-timeout' },
      attempts: 3,
    });
    // Three passes out of three scored items: the timeout is not a 0 in the mean.
    expect(evaluation.summary).toMatchObject({ meanHard: 1, scoredCount: 3, excludedCount: 1 });
    expect(evaluation.counters).toEqual({ rolloutsRun: 6, cacheHits: 0, retries: 2, excludedItems: 1 });
    const report = reports.find((entry) => entry.itemId === 'item-1');
    expect(report).toMatchObject({ errorCode: ERROR_CODES.providerTimeout, cached: false });
    expect(report).not.toHaveProperty('hard');
  });

  it('does not cache an excluded item, so a later evaluation tries it again', async () => {
    const cache = createMemoryRolloutCache();
    await evaluateSkill(options((item) => (item.id === 'item-0' ? erroredResult(item) : scoredResult(item, 1)), { cache }).options);
    const again = options((item) => scoredResult(item, 1), { cache });
    const evaluation = await evaluateSkill(again.options);
    expect(again.environment.calls.map((call) => call.itemId)).toEqual(['item-0']);
    expect(evaluation.summary.scoredCount).toBe(4);
  });

  it('retries a thrown retryable ProviderError and excludes the item if it persists', async () => {
    const { environment, options: evaluateOptions } = options(
      (item) => {
        if (item.id === 'item-2') throw createRetryableProviderErrorForTests();
        return scoredResult(item, 0);
      },
      { retries: 1 },
    );
    const evaluation = await evaluateSkill(evaluateOptions);
    expect(environment.callsFor('item-2')).toBe(2);
    expect(evaluation.items[2]).toMatchObject({ status: 'excluded', error: { code: ERROR_CODES.providerUnavailable } });
    expect(evaluation.summary).toMatchObject({ meanHard: 0, scoredCount: 3, nothingScored: false });
  });

  it('excludes an errored result the env marked non-retryable without pointless retries', async () => {
    const { environment, options: evaluateOptions } = options((item) =>
      item.id === 'item-0' ? erroredResult(item, ERROR_CODES.processCrashed, false) : scoredResult(item, 1),
    );
    const evaluation = await evaluateSkill(evaluateOptions);
    expect(environment.callsFor('item-0')).toBe(1);
    expect(evaluation.items[0]).toMatchObject({ status: 'excluded', attempts: 1 });
    expect(evaluation.counters.retries).toBe(0);
  });

  it('rejects on a non-retryable SkillOptError without retrying it', async () => {
    const authentication = new ProviderError({
      provider: 'test-double',
      code: ERROR_CODES.providerAuthentication,
      message: 'the test-double key was refused',
      retryable: false,
      status: 401,
    });
    const { environment, options: evaluateOptions } = options(
      (item) => {
        if (item.id === 'item-0') throw authentication;
        return scoredResult(item, 1);
      },
      { concurrency: 1 },
    );
    await expect(evaluateSkill(evaluateOptions)).rejects.toBe(authentication);
    expect(environment.callsFor('item-0')).toBe(1);
    // With one rollout at a time, nothing after the failed item was started.
    expect(environment.calls).toHaveLength(1);
  });

  it('rejects on an internal error with an internal SkillOptError that names the env and item', async () => {
    const bug = new TypeError('cannot read properties of undefined');
    const { environment, options: evaluateOptions } = options((item) => {
      if (item.id === 'item-1') throw bug;
      return scoredResult(item, 1);
    });
    const rejection = await evaluateSkill(evaluateOptions).catch((error: unknown) => error);
    expect(SkillOptError.isInstance(rejection)).toBe(true);
    expect(rejection).toMatchObject({ code: ERROR_CODES.internal, category: 'internal', retryable: false, cause: bug });
    expect((rejection as Error).message).toContain('item-1');
    expect(environment.callsFor('item-1')).toBe(1);
  });

  it('rejects a result whose score is out of range instead of averaging it', async () => {
    const { options: evaluateOptions } = options((item) => ({ ...scoredResult(item, 1), hard: 2 }) as RolloutResult);
    await expect(evaluateSkill(evaluateOptions)).rejects.toMatchObject({ code: ERROR_CODES.internal });
  });

  it('rejects duplicate item ids before rolling anything out', async () => {
    const [first] = makeItems(1);
    const { environment, options: evaluateOptions } = options(evenItemsPass, { items: [first!, first!] });
    await expect(evaluateSkill(evaluateOptions)).rejects.toMatchObject({ code: ERROR_CODES.dataInvalid });
    expect(environment.calls).toHaveLength(0);
  });
});

describe('evaluateSkill: abort', () => {
  it('rejects with the abort reason at once, even while an env ignores its signal', async () => {
    const controller = new AbortController();
    const neverSettles = deferred<RolloutResult>();
    const {
      environment,
      reports,
      options: evaluateOptions,
    } = options(() => neverSettles.promise, {
      signal: controller.signal,
      concurrency: 2,
    });
    const evaluation = evaluateSkill(evaluateOptions);
    await waitUntil(() => environment.calls.length === 2);
    const reason = new SkillOptError({ code: ERROR_CODES.aborted, category: 'user', message: 'stopped by the test' });
    controller.abort(reason);
    // The env's rollouts are still pending: the rejection cannot have waited for them.
    await expect(evaluation).rejects.toBe(reason);
    expect(environment.calls).toHaveLength(2);
    expect(environment.calls.every((call) => call.signal.aborted)).toBe(true);
    expect(reports).toHaveLength(0);
    neverSettles.resolve(scoredResult(makeItems(1)[0]!, 1));
  });

  it('rejects an already-aborted evaluation without rolling anything out', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already stopped'));
    const { environment, options: evaluateOptions } = options(evenItemsPass, { signal: controller.signal });
    await expect(evaluateSkill(evaluateOptions)).rejects.toThrow('already stopped');
    expect(environment.calls).toHaveLength(0);
  });

  it('stops retrying when aborted during the wait before a retry', async () => {
    const controller = new AbortController();
    const { environment, options: evaluateOptions } = options(
      (item) => {
        queueMicrotask(() => controller.abort(new Error('stopped during retry wait')));
        return erroredResult(item);
      },
      { signal: controller.signal, retryDelayMs: 60_000, concurrency: 1 },
    );
    await expect(evaluateSkill(evaluateOptions)).rejects.toThrow('stopped during retry wait');
    expect(environment.calls).toHaveLength(1);
  });
});
