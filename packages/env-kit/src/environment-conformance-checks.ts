import assert from 'node:assert/strict';
import {
  ERROR_CODES,
  isEnvironment,
  SkillOptError,
  SPLIT_NAMES,
  SUPPORTED_SPECIFICATION_VERSIONS,
  isSupportedSpecificationVersion,
  TARGET_KINDS,
  taskItemSchema,
  type RolloutResult,
  type SplitName,
  type TaskItem,
} from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';
import {
  assertTargetFailureIsNotScored,
  assertValidResult,
  chooseTargetKind,
  type ConformanceCheck,
  declaredTargetKind,
  describeError,
  describeResult,
  loadSplits,
  planRollouts,
  rolloutInFreshWorkDirectory,
  type Settlement,
  settle,
} from './conformance-rollouts.js';
import { createRetryableProviderErrorForTests, createStallingTarget } from './test-double-targets.js';

const DEFAULT_ABORT_GRACE_MS = 5000;

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
  const kind = declaredTargetKind(options);
  if (kind !== undefined) {
    assert.ok(
      environment.targetKinds.includes(kind),
      `the suite was asked to drive a target of kind "${kind}", which the env does not support (${environment.targetKinds.join(', ')})`,
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
  await assertTargetFailureIsNotScored(environment, {
    item: plan.items[0] as TaskItem,
    skill: plan.skill,
    kind: chooseTargetKind(environment, options),
    error: createRetryableProviderErrorForTests(),
    failure: 'a retryable ProviderError',
  });
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
  const stalling = createStallingTarget(chooseTargetKind(environment, options));
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
