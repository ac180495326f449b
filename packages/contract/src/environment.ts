import type { AgentRunner } from './agent-runner.js';
import type { ChatModel } from './chat-model.js';
import type { ModelCapabilityName } from './capabilities.js';
import type { RolloutResult } from './rollout-result.js';
import type { RolloutPhase } from './run-event.js';
import { supportedImplementationFields } from './implementation-shape.js';
import type { SplitName, TaskItem } from './task-item.js';

export const TARGET_KINDS = ['chat', 'agent'] as const;
export type TargetKind = (typeof TARGET_KINDS)[number];

/** The model under training: a chat model the env prompts, or a whole agent harness. */
export type Target = { kind: 'chat'; model: ChatModel } | { kind: 'agent'; runner: AgentRunner };

export interface RolloutContext {
  /** The skill document to run with. */
  skill: string;
  target: Target;
  /** Aborted when the run stops; a rollout rejects promptly with the signal's reason. */
  signal: AbortSignal;
  /**
   * A directory of this rollout's own, for files it writes: created on the first call (every call
   * returns the same path) and removed by core after the rollout, so an env that writes nothing
   * costs no directory at all.
   */
  workDirectory(): Promise<string>;
  /** Which sample of the same item this is, when an item is rolled out more than once. */
  sampleIndex: number;
  /**
   * Why the item is rolled out (`train`, `selection`, `test`, …), for an env whose rollout differs
   * in training: SpreadsheetBench's multi-turn mode tells the model which cells are wrong only on
   * training items. Absent when the caller does not say (treat it as an evaluation).
   */
  phase?: RolloutPhase;
}

/**
 * A benchmark, version 1 of the interface. `rollout` handles one item: core schedules items concurrently, caches each result
 * and reports progress item by item, so an env never loops over a split itself.
 *
 * `rollout` returns a `scored` result when the target answered, and an `errored` one (or throws a
 * retryable `ProviderError`) when infrastructure failed; it never turns a failure into a score of 0.
 */
export interface EnvironmentV1 {
  readonly specificationVersion: 'v1';
  readonly id: string;
  readonly targetKinds: readonly TargetKind[];
  readonly taskTypes: readonly string[];
  /**
   * What the target must be able to do (DocVQA: `images`). Core refuses, before the run starts, a
   * target that declares one of these missing; a target that does not say is given the benefit.
   */
  readonly requiredCapabilities?: readonly ModelCapabilityName[];
  /** The skill training starts from, unless the config names another. */
  initialSkill(): Promise<string>;
  loadSplit(split: SplitName): Promise<TaskItem[]>;
  rollout(item: TaskItem, context: RolloutContext): Promise<RolloutResult>;
  /** Optional: build expensive state once before the first rollout. */
  setup?(): Promise<void>;
  /** Optional: release what `setup` built. Called once, also after a failed run. */
  teardown?(): Promise<void>;
}

/** The environment interface of this release (an alias of the newest version). */
export type Environment = EnvironmentV1;

export function isEnvironment(value: unknown): value is Environment {
  const fields = supportedImplementationFields(value, 'environment');
  return (
    fields !== undefined &&
    typeof fields.id === 'string' &&
    Array.isArray(fields.targetKinds) &&
    Array.isArray(fields.taskTypes) &&
    ['initialSkill', 'loadSplit', 'rollout'].every((method) => typeof fields[method] === 'function')
  );
}
