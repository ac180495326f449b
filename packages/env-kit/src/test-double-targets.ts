import { ERROR_CODES, ProviderError, SkillOptError, type TargetKind, type Target, type TaskItem } from '@skillopt/contract';
import { createReferenceAnsweringAgentRunner, createScriptedAgentRunner } from './test-double-agent-runner.js';
import { createReferenceAnsweringChatModel, createScriptedChatModel, type ReferenceAnsweringOptions } from './test-double-chat-model.js';

/**
 * TEST DOUBLE. The failure a real provider reports after its own retries gave up on a 503: a
 * retryable `ProviderError`. An env must pass it on (throw it, or return an `errored` result),
 * never score it.
 */
export function createRetryableProviderErrorForTests(): ProviderError {
  return new ProviderError({
    provider: 'test-double',
    code: ERROR_CODES.providerUnavailable,
    message: 'the test-double provider is unavailable (simulated failure)',
    retryable: true,
    status: 503,
  });
}

/** TEST DOUBLE. A target of `kind` that knows every item's answer (see `createReferenceAnsweringChatModel`). */
export function createReferenceAnsweringTarget(kind: TargetKind, items: readonly TaskItem[], options: ReferenceAnsweringOptions = {}): Target {
  return kind === 'chat'
    ? { kind, model: createReferenceAnsweringChatModel(items, options) }
    : { kind, runner: createReferenceAnsweringAgentRunner(items, options) };
}

/** A test-double target together with a count of the calls it received. */
export interface CountingTarget {
  target: Target;
  callCount(): number;
}

/** TEST DOUBLE. A target of `kind` whose every call rejects with `error` (default: a retryable ProviderError). */
export function createFailingTarget(kind: TargetKind, error: unknown = createRetryableProviderErrorForTests()): CountingTarget {
  const fail = (): never => {
    throw error;
  };
  if (kind === 'chat') {
    const model = createScriptedChatModel({ modelId: 'failing-chat-model', reply: fail });
    return { target: { kind, model }, callCount: () => model.calls.length };
  }
  const runner = createScriptedAgentRunner({ modelId: 'failing-agent-runner', reply: fail });
  return { target: { kind, runner }, callCount: () => runner.calls.length };
}

/** A target that never answers until aborted or released; see `createStallingTarget`. */
export interface StallingTarget extends CountingTarget {
  /** Resolves when the first call arrives. */
  called: Promise<void>;
  /** Rejects every pending and future call, so a rollout that ignored its signal can finish. */
  release(): void;
}

/**
 * TEST DOUBLE. A target of `kind` whose calls wait forever: they reject with the signal's reason
 * when the call's signal aborts (as a real provider call does), or with an internal error once
 * `release()` is called. It shows whether an env passes its rollout signal on to the target.
 */
export function createStallingTarget(kind: TargetKind): StallingTarget {
  let markCalled: () => void = () => undefined;
  const called = new Promise<void>((resolve) => {
    markCalled = resolve;
  });
  let releaseAll: (error: unknown) => void = () => undefined;
  let released: unknown;
  const releasedPromise = new Promise<never>((_resolve, reject) => {
    releaseAll = reject;
  });
  // Without a handler the rejection would be reported as unhandled when no call is pending.
  releasedPromise.catch(() => undefined);
  const waitForever = (): Promise<never> => {
    markCalled();
    return released === undefined ? releasedPromise : Promise.reject(released);
  };
  const release = (): void => {
    if (released !== undefined) return;
    released = new SkillOptError({
      code: ERROR_CODES.internal,
      category: 'internal',
      message: 'the stalling test-double target was released by the test',
    });
    releaseAll(released);
  };
  if (kind === 'chat') {
    const model = createScriptedChatModel({ modelId: 'stalling-chat-model', reply: waitForever });
    return { target: { kind, model }, callCount: () => model.calls.length, called, release };
  }
  const runner = createScriptedAgentRunner({ modelId: 'stalling-agent-runner', reply: waitForever });
  return { target: { kind, runner }, callCount: () => runner.calls.length, called, release };
}
