import type { RolloutContext, Target } from '@skillopt/contract';

/**
 * TEST DOUBLE. The context of one rollout for an env's unit tests, for envs that write no files:
 * asking it for a work directory fails the test, so a rollout that starts writing files where it
 * did not before is noticed. Envs that do write files use core's own or the conformance suite's.
 */
export function createFilelessRolloutContextForTests(options: {
  skill: string;
  target: Target;
  signal?: AbortSignal | undefined;
  sampleIndex?: number;
}): RolloutContext {
  return {
    skill: options.skill,
    target: options.target,
    signal: options.signal ?? new AbortController().signal,
    sampleIndex: options.sampleIndex ?? 0,
    workDirectory: () => Promise.reject(new Error('this rollout asked for a work directory; the test expected it to write no files')),
  };
}
