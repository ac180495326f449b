import type { Environment, RolloutContext, RolloutResult, Target, TaskItem } from '@skillopt/contract';
import { createScriptedChatModel } from '@skillopt/env-kit/testing';

/** TEST DOUBLE. One call the scripted environment received. */
export interface RecordedRollout {
  itemId: string;
  skill: string;
  sampleIndex: number;
  workDirectory: () => Promise<string>;
  signal: AbortSignal;
}

/** How the scripted environment answers: `attempt` counts this item's calls, from 1. */
export type RolloutScript = (item: TaskItem, context: RolloutContext, attempt: number) => Promise<RolloutResult> | RolloutResult;

export interface ScriptedEnvironment extends Environment {
  calls: RecordedRollout[];
  callsFor(itemId: string): number;
}

/** TEST DOUBLE. An environment whose `rollout` follows `script` and records every call. */
export function createScriptedEnvironmentForTests(script: RolloutScript): ScriptedEnvironment {
  const calls: RecordedRollout[] = [];
  const callsFor = (itemId: string): number => calls.filter((call) => call.itemId === itemId).length;
  return {
    specificationVersion: 'v1',
    id: 'scripted-test-double-env',
    targetKinds: ['chat'],
    taskTypes: ['qa'],
    initialSkill: async () => '# Skill\n',
    loadSplit: async () => [],
    calls,
    callsFor,
    async rollout(item, context) {
      calls.push({ itemId: item.id, skill: context.skill, sampleIndex: context.sampleIndex, workDirectory: context.workDirectory, signal: context.signal });
      return script(item, context, callsFor(item.id));
    },
  };
}

/** TEST DOUBLE. A chat target the scripted env never calls; only its identity (the cache key) matters. */
export function createIdleTargetForTests(modelId = 'idle-test-double-model'): Target {
  return {
    kind: 'chat',
    model: createScriptedChatModel({
      modelId,
      reply: () => {
        throw new Error('the idle test-double target is not meant to be called');
      },
    }),
  };
}

export function makeItems(count: number): TaskItem[] {
  return Array.from({ length: count }, (_unused, index) => ({ id: `item-${index}`, taskType: 'qa', question: `question ${index}` }));
}

export function scoredResult(item: TaskItem, hard: number, soft = hard): RolloutResult {
  return { id: item.id, taskType: item.taskType, status: 'scored', hard, soft, prediction: `answer to ${item.id}` };
}

export function erroredResult(item: TaskItem, code = 'provider-timeout', retryable = true): RolloutResult {
  return { id: item.id, taskType: item.taskType, status: 'errored', error: { code, message: `simulated ${code}`, retryable } };
}

/** A promise with its resolve/reject in hand, for controlling completion order. */
export interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

export function deferred<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((resolveWith, rejectWith) => {
    resolve = resolveWith;
    reject = rejectWith;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run (a few macrotask turns). */
export async function settle(turns = 5): Promise<void> {
  for (let turn = 0; turn < turns; turn += 1) await new Promise((resolve) => setImmediate(resolve));
}

/** Waits, turn by turn, until `condition` holds; fails after `maxTurns` turns (file-system work takes a few). */
export async function waitUntil(condition: () => boolean, maxTurns = 2000): Promise<void> {
  for (let turn = 0; turn < maxTurns; turn += 1) {
    if (condition()) return;
    await new Promise((resolve) => setImmediate(resolve));
  }
  throw new Error('waitUntil: the condition never held');
}
