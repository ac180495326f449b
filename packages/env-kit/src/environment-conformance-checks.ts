import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  ERROR_CODES,
  isEnvironment,
  rolloutResultSchema,
  SkillOptError,
  SPLIT_NAMES,
  SUPPORTED_SPECIFICATION_VERSIONS,
  isSupportedSpecificationVersion,
  TARGET_KINDS,
  taskItemSchema,
  type Environment,
  type RolloutResult,
  type SplitName,
  type Target,
  type TargetKind,
  type TaskItem,
} from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';
import { createRolloutWorkDirectory } from './rollout-work-directory.js';
import { createFailingTarget, createReferenceAnsweringTarget, createRetryableProviderErrorForTests, createStallingTarget } from './test-double-targets.js';

/** What the checks need besides the environment; every field has a default. */
export interface ConformanceCheckOptions {
  /**
   * The working target for the rollout checks, usually a test double. Default: a test double of the
   * env's first supported kind (chat preferred) that answers every item with its first reference
   * in `<answer>` tags (see `createReferenceAnsweringTarget`). It must be deterministic.
   */
  target?: Target;
  /** The splits to load; default train, val and test. */
  splits?: readonly SplitName[];
  /** How many items (the first ones of the splits, in order) are rolled out; default 3. */
  sampleSize?: number;
  /** The skill to roll out with; default the env's `initialSkill()`. */
  skill?: string;
  /**
   * How long a rollout may take to settle after its signal aborts before the check fails. Only a
   * guard against hanging: a conforming env settles long before. Default 5000 ms.
   */
  abortGraceMs?: number;
}

/** One check: resolves when the environment conforms, throws an `AssertionError` saying why not. */
export type ConformanceCheck = (environment: Environment, options?: ConformanceCheckOptions) => Promise<void>;

const DEFAULT_SAMPLE_SIZE = 3;
const DEFAULT_ABORT_GRACE_MS = 5000;

function describeError(error: unknown): string {
  if (SkillOptError.isInstance(error)) return `${error.name} ${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

function describeResult(result: RolloutResult): string {
  return result.status === 'scored'
    ? `status 'scored' (hard ${result.hard}, soft ${result.soft})`
    : `status 'errored' (${result.error.code}: ${result.error.message})`;
}

/** Chat is preferred: it is what the reference-answering double answers best. */
function chooseTargetKind(environment: Environment): TargetKind {
  const kind = environment.targetKinds.includes('chat') ? 'chat' : environment.targetKinds[0];
  assert.ok(kind !== undefined, `${environment.id}: targetKinds is empty, so no target can be built`);
  return kind;
}

async function loadSplits(environment: Environment, splits: readonly SplitName[]): Promise<Map<SplitName, TaskItem[]>> {
  const loaded = new Map<SplitName, TaskItem[]>();
  for (const split of splits) {
    let items: unknown;
    try {
      items = await environment.loadSplit(split);
    } catch (error) {
      assert.fail(`loadSplit('${split}') rejected: ${describeError(error)}`);
    }
    assert.ok(Array.isArray(items), `loadSplit('${split}') must resolve to an array, got ${typeof items}`);
    loaded.set(split, items as TaskItem[]);
  }
  return loaded;
}

interface RolloutPlan {
  items: TaskItem[];
  target: Target;
  skill: string;
}

/** The items to roll out, the working target and the skill, from the options or their defaults. */
async function planRollouts(environment: Environment, options: ConformanceCheckOptions): Promise<RolloutPlan> {
  const splits = options.splits ?? SPLIT_NAMES;
  const loaded = await loadSplits(environment, splits);
  const allItems = [...loaded.values()].flat();
  const sampleSize = options.sampleSize ?? DEFAULT_SAMPLE_SIZE;
  const items = allItems.slice(0, Math.max(1, sampleSize));
  assert.ok(items.length > 0, `the splits ${splits.join(', ')} hold no items, so no rollout can be checked`);
  const target = options.target ?? createReferenceAnsweringTarget(chooseTargetKind(environment), allItems);
  const skill = options.skill ?? (await environment.initialSkill());
  return { items, target, skill };
}

interface RolloutCall {
  item: TaskItem;
  target: Target;
  skill: string;
  signal?: AbortSignal | undefined;
  sampleIndex?: number;
}

/** One rollout with a lazy work directory of its own, removed afterwards, as core does it. */
async function rolloutInFreshWorkDirectory(environment: Environment, call: RolloutCall): Promise<RolloutResult> {
  const sampleIndex = call.sampleIndex ?? 0;
  const workDirectory = createRolloutWorkDirectory(path.join(tmpdir(), 'skillopt-conformance'), call.item.id, sampleIndex);
  try {
    return await environment.rollout(call.item, {
      skill: call.skill,
      target: call.target,
      signal: call.signal ?? new AbortController().signal,
      workDirectory: () => workDirectory.path(),
      sampleIndex,
    });
  } finally {
    await workDirectory.remove();
  }
}

function assertValidResult(result: unknown, item: TaskItem, situation: string): RolloutResult {
  const parsed = rolloutResultSchema.safeParse(result);
  if (!parsed.success) {
    assert.fail(`item "${item.id}" ${situation}: the result is not a valid RolloutResult: ${formatZodIssues(parsed.error)}`);
  }
  assert.equal(parsed.data.id, item.id, `item "${item.id}" ${situation}: the result's id must be the item's id`);
  assert.equal(parsed.data.taskType, item.taskType, `item "${item.id}" ${situation}: the result's taskType must be the item's taskType`);
  return parsed.data;
}

type Settlement<T> = { kind: 'resolved'; value: T } | { kind: 'rejected'; error: unknown };

function settle<T>(promise: Promise<T>): Promise<Settlement<T>> {
  return promise.then(
    (value) => ({ kind: 'resolved', value }),
    (error: unknown) => ({ kind: 'rejected', error }),
  );
}

/** Waits for `settlement`, giving up after `graceMs` so a hanging rollout fails the check instead of the run. */
async function settleWithin<T>(settlement: Promise<Settlement<T>>, graceMs: number): Promise<Settlement<T> | { kind: 'timed-out' }> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<{ kind: 'timed-out' }>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'timed-out' }), graceMs);
  });
  try {
    return await Promise.race([settlement, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function createAbortReason(): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.aborted,
    category: 'user',
    message: 'the conformance suite aborted this rollout',
  });
}

/** True when `error` is `expected` or carries it in its chain of causes (an env may wrap it). */
function isOrWraps(error: unknown, expected: unknown): boolean {
  const seen = new Set<unknown>();
  let current = error;
  while (current !== undefined && current !== null && !seen.has(current)) {
    if (current === expected) return true;
    seen.add(current);
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/**
 * The env has the Environment shape whatever its manifest says: `isEnvironment` holds, the
 * specification version is supported, `id` is set, target kinds and task types are sensible,
 * `initialSkill()` resolves to a string, and the optional hooks are functions when present.
 */
export const checkEnvironmentShape: ConformanceCheck = async (environment, options = {}) => {
  const candidate = environment as unknown as Record<string, unknown>;
  if (!isEnvironment(environment)) {
    const problems: string[] = [];
    if (typeof candidate.specificationVersion !== 'string') problems.push('specificationVersion is not a string');
    else if (!isSupportedSpecificationVersion('environment', candidate.specificationVersion)) {
      problems.push(
        `specificationVersion "${candidate.specificationVersion}" is not supported (supported: ${SUPPORTED_SPECIFICATION_VERSIONS.environment.join(', ')})`,
      );
    }
    if (typeof candidate.id !== 'string') problems.push('id is not a string');
    if (!Array.isArray(candidate.targetKinds)) problems.push('targetKinds is not an array');
    if (!Array.isArray(candidate.taskTypes)) problems.push('taskTypes is not an array');
    for (const method of ['initialSkill', 'loadSplit', 'rollout']) {
      if (typeof candidate[method] !== 'function') problems.push(`${method} is not a function`);
    }
    assert.fail(`not an Environment: ${problems.join('; ')}`);
  }
  assert.ok(environment.id.trim() !== '', 'id must not be empty');
  assert.ok(environment.targetKinds.length > 0, 'targetKinds must name at least one kind (chat or agent)');
  for (const kind of environment.targetKinds) {
    assert.ok(TARGET_KINDS.includes(kind), `targetKinds: "${String(kind)}" is not one of ${TARGET_KINDS.join(', ')}`);
  }
  assert.ok(environment.taskTypes.length > 0, 'taskTypes must name at least one task type');
  for (const taskType of environment.taskTypes) {
    assert.ok(typeof taskType === 'string' && taskType !== '', `taskTypes: ${JSON.stringify(taskType)} is not a non-empty string`);
  }
  assert.equal(new Set(environment.taskTypes).size, environment.taskTypes.length, 'taskTypes must not repeat a type');
  for (const hook of ['setup', 'teardown']) {
    assert.ok(candidate[hook] === undefined || typeof candidate[hook] === 'function', `${hook} must be a function when present, got ${typeof candidate[hook]}`);
  }
  const skill: unknown = await environment.initialSkill();
  assert.equal(typeof skill, 'string', `initialSkill() must resolve to a string, got ${typeof skill}`);
  if (options.target !== undefined) {
    assert.ok(
      environment.targetKinds.includes(options.target.kind),
      `the target given to the suite is of kind "${options.target.kind}", which the env does not support (${environment.targetKinds.join(', ')})`,
    );
  }
};

/**
 * `loadSplit` of each split resolves to items valid against `taskItemSchema`, whose `taskType` is one
 * of the env's `taskTypes`, with ids unique within the split and across the splits (a shared id
 * would leak a training item into selection or test).
 */
export const checkSplitsLoadValidItems: ConformanceCheck = async (environment, options = {}) => {
  const splits = options.splits ?? SPLIT_NAMES;
  const loaded = await loadSplits(environment, splits);
  const splitById = new Map<string, SplitName>();
  for (const [split, items] of loaded) {
    items.forEach((item, index) => {
      const parsed = taskItemSchema.safeParse(item);
      if (!parsed.success) {
        assert.fail(`loadSplit('${split}') item ${index} is not a valid TaskItem: ${formatZodIssues(parsed.error)}`);
      }
      assert.ok(
        environment.taskTypes.includes(item.taskType),
        `loadSplit('${split}') item "${item.id}" has taskType "${item.taskType}", which is not in the env's taskTypes (${environment.taskTypes.join(', ')})`,
      );
      const earlier = splitById.get(item.id);
      if (earlier === split) assert.fail(`loadSplit('${split}') has the id "${item.id}" more than once; ids must be unique`);
      if (earlier !== undefined) assert.fail(`the id "${item.id}" is in both the ${earlier} and the ${split} split`);
      splitById.set(item.id, split);
    });
  }
};

/** Loading a split twice gives equal items in the same order, so runs and resumes see the same data. */
export const checkSplitLoadingIsDeterministic: ConformanceCheck = async (environment, options = {}) => {
  const splits = options.splits ?? SPLIT_NAMES;
  const first = await loadSplits(environment, splits);
  const second = await loadSplits(environment, splits);
  for (const split of splits) {
    try {
      assert.deepStrictEqual(second.get(split), first.get(split));
    } catch (error) {
      assert.fail(`loadSplit('${split}') gave different items on the second load:\n${(error as Error).message}`);
    }
  }
};

/**
 * With a working target, each sampled rollout resolves to a valid `scored` result for that item
 * (same id and taskType, hard and soft within 0..1).
 */
export const checkRolloutResultsAreValid: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  for (const item of plan.items) {
    let result: unknown;
    try {
      result = await rolloutInFreshWorkDirectory(environment, { item, target: plan.target, skill: plan.skill });
    } catch (error) {
      assert.fail(`item "${item.id}": rollout with a working target rejected: ${describeError(error)}`);
    }
    const valid = assertValidResult(result, item, 'with a working target');
    assert.ok(valid.status === 'scored', `item "${item.id}": rollout with a working target returned ${describeResult(valid)}; expected a 'scored' result`);
  }
};

/**
 * A target whose call throws a retryable `ProviderError` must not produce a score: the rollout
 * rejects with that error (or one wrapping it, or another retryable SkillOptError), or returns an
 * `errored` result marked retryable. A `scored` result, even with hard 0, fails the check: that is
 * the original's weak spot of counting infrastructure failures as wrong answers.
 */
export const checkProviderErrorsAreNotScores: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  const item = plan.items[0] as TaskItem;
  const providerError = createRetryableProviderErrorForTests();
  const failing = createFailingTarget(chooseTargetKind(environment), providerError);
  const outcome = await settle(rolloutInFreshWorkDirectory(environment, { item, target: failing.target, skill: plan.skill }));
  if (outcome.kind === 'rejected') {
    const error = outcome.error;
    const acceptable = isOrWraps(error, providerError) || (SkillOptError.isInstance(error) && error.retryable);
    assert.ok(
      acceptable,
      `item "${item.id}": when the target threw a retryable ProviderError the rollout rejected with ${describeError(error)}; rethrow the target's error (or wrap it as the cause) so core can retry it`,
    );
    return;
  }
  const result = assertValidResult(outcome.value, item, 'when the target failed');
  if (result.status === 'scored') {
    const detail = failing.callCount() === 0 ? 'without calling the target at all' : `after the target threw a retryable ProviderError (${providerError.code})`;
    assert.fail(
      `item "${item.id}": the rollout returned a scored result (hard ${result.hard}, soft ${result.soft}) ${detail}; a provider failure must be rethrown or returned as status 'errored', never scored`,
    );
  }
  assert.ok(
    result.error.retryable,
    `item "${item.id}": the errored result for a retryable ProviderError is marked retryable: false, so core would not retry it`,
  );
};

/** An already-aborted signal: the rollout rejects or returns `errored`, and never returns a score. */
export const checkAbortedSignalIsHonoured: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  const item = plan.items[0] as TaskItem;
  const controller = new AbortController();
  controller.abort(createAbortReason());
  const graceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  const outcome = await settleWithin(
    settle(rolloutInFreshWorkDirectory(environment, { item, target: plan.target, skill: plan.skill, signal: controller.signal })),
    graceMs,
  );
  assert.ok(outcome.kind !== 'timed-out', `item "${item.id}": with an already-aborted signal the rollout had not settled after ${graceMs} ms`);
  if (outcome.kind === 'resolved') {
    const result = assertValidResult(outcome.value, item, 'with an already-aborted signal');
    assert.ok(
      result.status === 'errored',
      `item "${item.id}": with an already-aborted signal the rollout returned ${describeResult(result)}; it must reject with the signal's reason (or return 'errored')`,
    );
  }
};

/**
 * A signal aborted while the target is answering (a target that waits until aborted): the rollout
 * settles promptly by rejecting or returning `errored`, never with a score. Fails with a hint when
 * the env does not pass `context.signal` on to the target.
 */
export const checkAbortDuringRolloutIsHonoured: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  const item = plan.items[0] as TaskItem;
  const stalling = createStallingTarget(chooseTargetKind(environment));
  const controller = new AbortController();
  const graceMs = options.abortGraceMs ?? DEFAULT_ABORT_GRACE_MS;
  try {
    const outcome = settle(rolloutInFreshWorkDirectory(environment, { item, target: stalling.target, skill: plan.skill, signal: controller.signal }));
    const first = await Promise.race([stalling.called.then(() => 'called' as const), outcome]);
    if (first !== 'called') {
      const how = first.kind === 'rejected' ? `rejected with ${describeError(first.error)}` : `resolved to ${JSON.stringify(first.value).slice(0, 200)}`;
      assert.fail(`item "${item.id}": the rollout ${how} before calling the target, so an abort during the call cannot be checked`);
    }
    controller.abort(createAbortReason());
    const settled = await settleWithin(outcome, graceMs);
    assert.ok(
      settled.kind !== 'timed-out',
      `item "${item.id}": the rollout had not settled ${graceMs} ms after its signal aborted mid-call; pass context.signal to the target (generate({signal}) / run({signal})) or stop waiting when it aborts`,
    );
    if (settled.kind === 'resolved') {
      const result = assertValidResult(settled.value, item, 'aborted mid-call');
      assert.ok(
        result.status === 'errored',
        `item "${item.id}": aborted mid-call, the rollout returned ${describeResult(result)}; it must reject with the signal's reason (or return 'errored')`,
      );
    }
  } finally {
    stalling.release();
  }
};

function scoredFields(result: RolloutResult): string {
  return result.status === 'scored'
    ? JSON.stringify({ hard: result.hard, soft: result.soft, prediction: result.prediction })
    : JSON.stringify({ status: result.status, code: result.error.code });
}

/**
 * Rollouts of different items run at the same time give the same hard, soft and prediction as the
 * same rollouts run one after another: core runs items concurrently, so shared mutable state in an
 * env (a reused conversation, a global counter, a shared work file) shows up here.
 */
export const checkConcurrentRolloutsMatchSequential: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  // With a single item, two concurrent samples of it still exercise overlapping rollouts.
  const items = plan.items.length > 1 ? plan.items : [plan.items[0] as TaskItem, plan.items[0] as TaskItem];
  const run = (item: TaskItem): Promise<RolloutResult> => rolloutInFreshWorkDirectory(environment, { item, target: plan.target, skill: plan.skill });
  const sequential: RolloutResult[] = [];
  for (const item of items) sequential.push(assertValidResult(await run(item), item, 'run sequentially'));
  const concurrent = await Promise.all(items.map(async (item) => assertValidResult(await run(item), item, 'run concurrently')));
  items.forEach((item, index) => {
    const alone = sequential[index] as RolloutResult;
    const together = concurrent[index] as RolloutResult;
    assert.equal(
      scoredFields(together),
      scoredFields(alone),
      `item "${item.id}": run concurrently with other items it gave ${scoredFields(together)}, run alone ${scoredFields(alone)}`,
    );
  });
};

/**
 * `setup()` and `teardown()`, where the env has them, resolve; a rollout works between them; and
 * teardown also works after a setup that was followed by no rollout at all (a run that failed early).
 */
export const checkSetupAndTeardown: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, options);
  const item = plan.items[0] as TaskItem;
  const callHook = async (hook: 'setup' | 'teardown'): Promise<void> => {
    const method = environment[hook];
    if (method === undefined) return;
    try {
      await method.call(environment);
    } catch (error) {
      assert.fail(`${hook}() rejected: ${describeError(error)}`);
    }
  };
  await callHook('setup');
  try {
    const result = await rolloutInFreshWorkDirectory(environment, { item, target: plan.target, skill: plan.skill });
    assertValidResult(result, item, 'after setup()');
  } finally {
    await callHook('teardown');
  }
  await callHook('setup');
  await callHook('teardown');
};

/** A named check, as the describe wrapper registers it. */
export interface NamedConformanceCheck {
  name: string;
  run: ConformanceCheck;
  /** True for the check that calls setup/teardown itself; the others run between the two. */
  managesLifecycle?: boolean;
}

/** Every check, in the order the suite registers them. */
export const ENVIRONMENT_CONFORMANCE_CHECKS: readonly NamedConformanceCheck[] = [
  { name: 'has the Environment shape', run: checkEnvironmentShape },
  { name: 'loads valid items with unique ids from each split', run: checkSplitsLoadValidItems },
  { name: 'loads the same items every time', run: checkSplitLoadingIsDeterministic },
  { name: 'returns valid scored results for its items', run: checkRolloutResultsAreValid },
  { name: 'never scores a provider error', run: checkProviderErrorsAreNotScores },
  { name: 'does not score a rollout whose signal is already aborted', run: checkAbortedSignalIsHonoured },
  { name: 'stops promptly when aborted during the target call', run: checkAbortDuringRolloutIsHonoured },
  { name: 'gives the same results concurrently as sequentially', run: checkConcurrentRolloutsMatchSequential },
  { name: 'runs rollouts between setup and teardown', run: checkSetupAndTeardown, managesLifecycle: true },
];
