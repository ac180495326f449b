import assert from 'node:assert/strict';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  rolloutResultSchema,
  SkillOptError,
  SPLIT_NAMES,
  type Environment,
  type RolloutResult,
  type SplitName,
  type Target,
  type TargetKind,
  type TaskItem,
} from '@skillopt/contract';
import { formatZodIssues } from '@skillopt/runtime-kit';
import { createRolloutWorkDirectory } from './rollout-work-directory.js';
import { createFailingTarget, createReferenceAnsweringTarget } from './test-double-targets.js';

/** Builds the working target from every item the suite loaded (a target that answers from an answer key). */
export type ConformanceTargetFactory = (items: readonly TaskItem[]) => Target;

/** What the checks need besides the environment; every field has a default. */
export interface ConformanceCheckOptions {
  /**
   * The working target for the rollout checks, usually a test double, or a function of the loaded
   * items that builds it. Default: a test double of the kind the checks drive (`targetKind`) that
   * answers every item with its first reference in `<answer>` tags (see
   * `createReferenceAnsweringTarget`). It must be deterministic.
   */
  target?: Target | ConformanceTargetFactory;
  /**
   * The kind of target the rollout checks drive: default the kind of `target` when it is one, else
   * chat when the env supports it, else agent. With `agent`, the agent checks run too.
   */
  targetKind?: TargetKind;
  /**
   * The workspace paths of an item's own files, which an agent rollout puts beside `task.md`
   * (documents, page images); default none. The agent checks hold the env to exactly these.
   */
  agentWorkspaceFiles?: (item: TaskItem) => readonly string[];
  /**
   * Where an agent's answer is: `final-text` (the default), its final reply, scored as the env
   * scores the same chat reply; `workspace-files`, files it writes in its workspace (an output
   * workbook), so its final text is not scored, and `task.md` may say more than the chat prompt.
   */
  agentAnswer?: 'final-text' | 'workspace-files';
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

export function describeError(error: unknown): string {
  if (SkillOptError.isInstance(error)) return `${error.name} ${error.code}: ${error.message}`;
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  return String(error);
}

export function describeResult(result: RolloutResult): string {
  return result.status === 'scored'
    ? `status 'scored' (hard ${result.hard}, soft ${result.soft})`
    : `status 'errored' (${result.error.code}: ${result.error.message})`;
}

/** The kind the options name, when they name one without the environment's help. */
export function declaredTargetKind(options: Pick<ConformanceCheckOptions, 'target' | 'targetKind'>): TargetKind | undefined {
  return options.targetKind ?? (typeof options.target === 'object' ? options.target.kind : undefined);
}

/** The kind the rollout checks drive; chat is preferred by default, as what the reference-answering double answers best. */
export function chooseTargetKind(environment: Environment, options: ConformanceCheckOptions = {}): TargetKind {
  const kind = declaredTargetKind(options) ?? (environment.targetKinds.includes('chat') ? 'chat' : environment.targetKinds[0]);
  assert.ok(kind !== undefined, `${environment.id}: targetKinds is empty, so no target can be built`);
  return kind;
}

export async function loadSplits(environment: Environment, splits: readonly SplitName[]): Promise<Map<SplitName, TaskItem[]>> {
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

export interface RolloutPlan {
  items: TaskItem[];
  target: Target;
  skill: string;
}

/** The items to roll out, the working target and the skill, from the options or their defaults. */
export async function planRollouts(environment: Environment, options: ConformanceCheckOptions): Promise<RolloutPlan> {
  const splits = options.splits ?? SPLIT_NAMES;
  const loaded = await loadSplits(environment, splits);
  const allItems = [...loaded.values()].flat();
  const sampleSize = options.sampleSize ?? DEFAULT_SAMPLE_SIZE;
  const items = allItems.slice(0, Math.max(1, sampleSize));
  assert.ok(items.length > 0, `the splits ${splits.join(', ')} hold no items, so no rollout can be checked`);
  const kind = chooseTargetKind(environment, options);
  const given = typeof options.target === 'function' ? options.target(allItems) : options.target;
  const target = given ?? createReferenceAnsweringTarget(kind, allItems);
  assert.equal(target.kind, kind, `the target given to the suite is of kind "${target.kind}", and targetKind says "${kind}"`);
  const skill = options.skill ?? (await environment.initialSkill());
  return { items, target, skill };
}

export interface RolloutCall {
  item: TaskItem;
  target: Target;
  skill: string;
  signal?: AbortSignal | undefined;
  sampleIndex?: number;
  /** Told the path of the rollout's work directory when the env asks for it. */
  onWorkDirectory?: (directory: string) => void;
}

/** One rollout with a lazy work directory of its own, removed afterwards, as core does it. */
export async function rolloutInFreshWorkDirectory(environment: Environment, call: RolloutCall): Promise<RolloutResult> {
  const sampleIndex = call.sampleIndex ?? 0;
  const workDirectory = createRolloutWorkDirectory(path.join(tmpdir(), 'skillopt-conformance'), call.item.id, sampleIndex);
  try {
    return await environment.rollout(call.item, {
      skill: call.skill,
      target: call.target,
      signal: call.signal ?? new AbortController().signal,
      workDirectory: async () => {
        const directory = await workDirectory.path();
        call.onWorkDirectory?.(directory);
        return directory;
      },
      sampleIndex,
    });
  } finally {
    await workDirectory.remove();
  }
}

export function assertValidResult(result: unknown, item: TaskItem, situation: string): RolloutResult {
  const parsed = rolloutResultSchema.safeParse(result);
  if (!parsed.success) {
    assert.fail(`item "${item.id}" ${situation}: the result is not a valid RolloutResult: ${formatZodIssues(parsed.error)}`);
  }
  assert.equal(parsed.data.id, item.id, `item "${item.id}" ${situation}: the result's id must be the item's id`);
  assert.equal(parsed.data.taskType, item.taskType, `item "${item.id}" ${situation}: the result's taskType must be the item's taskType`);
  return parsed.data;
}

export type Settlement<T> = { kind: 'resolved'; value: T } | { kind: 'rejected'; error: unknown };

export function settle<T>(promise: Promise<T>): Promise<Settlement<T>> {
  return promise.then(
    (value) => ({ kind: 'resolved', value }),
    (error: unknown) => ({ kind: 'rejected', error }),
  );
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

/** A failure of the target for `assertTargetFailureIsNotScored`. */
export interface TargetFailure {
  item: TaskItem;
  skill: string;
  kind: TargetKind;
  /** What the failing target throws: a retryable SkillOptError. */
  error: SkillOptError;
  /** How the messages name it: "a retryable ProviderError". */
  failure: string;
}

/**
 * A target whose call throws `failure.error` must not produce a score: the rollout rejects with
 * that error (or one wrapping it, or another retryable SkillOptError), or returns an `errored`
 * result marked retryable.
 */
export async function assertTargetFailureIsNotScored(environment: Environment, failure: TargetFailure): Promise<void> {
  const { item, error: thrown } = failure;
  const failing = createFailingTarget(failure.kind, thrown);
  const outcome = await settle(rolloutInFreshWorkDirectory(environment, { item, target: failing.target, skill: failure.skill }));
  if (outcome.kind === 'rejected') {
    const error = outcome.error;
    const acceptable = isOrWraps(error, thrown) || (SkillOptError.isInstance(error) && error.retryable);
    assert.ok(
      acceptable,
      `item "${item.id}": when the target threw ${failure.failure} the rollout rejected with ${describeError(error)}; rethrow the target's error (or wrap it as the cause) so core can retry it`,
    );
    return;
  }
  const result = assertValidResult(outcome.value, item, 'when the target failed');
  if (result.status === 'scored') {
    const detail = failing.callCount() === 0 ? 'without calling the target at all' : `after the target threw ${failure.failure} (${thrown.code})`;
    assert.fail(
      `item "${item.id}": the rollout returned a scored result (hard ${result.hard}, soft ${result.soft}) ${detail}; a provider failure must be rethrown or returned as status 'errored', never scored`,
    );
  }
  assert.ok(result.error.retryable, `item "${item.id}": the errored result for ${failure.failure} is marked retryable: false, so core would not retry it`);
}
