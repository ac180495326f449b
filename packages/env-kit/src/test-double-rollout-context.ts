import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RolloutContext, Target } from '@skillopt/contract';
import { createRolloutWorkDirectory, type RolloutWorkDirectory } from './rollout-work-directory.js';

/**
 * TEST DOUBLE. The context of one rollout for an env's unit tests, for envs that write no files:
 * asking it for a work directory fails the test, so a rollout that starts writing files where it
 * did not before is noticed. Envs that do write files use `createWorkDirectoryRolloutContextsForTests`.
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

/** Rollout contexts with real work directories; see `createWorkDirectoryRolloutContextsForTests`. */
export interface WorkDirectoryRolloutContexts {
  /** A context whose `workDirectory()` makes a fresh directory for `itemId` on first use. */
  contextFor(options: { skill: string; target: Target; itemId: string; signal?: AbortSignal | undefined; sampleIndex?: number }): RolloutContext;
  /** Removes every directory the contexts made. */
  removeAll(): Promise<void>;
}

/**
 * TEST DOUBLE. Rollout contexts for an env's unit tests of rollouts that write files (an agent
 * rollout's workspace): each has a work directory of its own under the system's temporary folder,
 * made on first use as core makes it; call `removeAll` after each test.
 */
export function createWorkDirectoryRolloutContextsForTests(): WorkDirectoryRolloutContexts {
  const made: RolloutWorkDirectory[] = [];
  return {
    contextFor(options) {
      const sampleIndex = options.sampleIndex ?? 0;
      const workDirectory = createRolloutWorkDirectory(path.join(tmpdir(), 'skillopt-env-tests'), options.itemId, sampleIndex);
      made.push(workDirectory);
      return {
        skill: options.skill,
        target: options.target,
        signal: options.signal ?? new AbortController().signal,
        sampleIndex,
        workDirectory: () => workDirectory.path(),
      };
    },
    async removeAll() {
      for (const workDirectory of made.splice(0)) await workDirectory.remove();
    },
  };
}
