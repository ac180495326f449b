import type { Environment, RolloutPhase, RolloutResult, Target, TaskItem } from '@skillopt/contract';
import { createRolloutWorkDirectory } from '@skillopt/env-kit';

/** One rollout to run: everything a worker needs, wherever it runs. */
export interface RolloutTask {
  environment: Environment;
  item: TaskItem;
  skill: string;
  target: Target;
  sampleIndex: number;
  /** Why it is rolled out; passed on to the env's rollout context. */
  phase?: RolloutPhase;
  /** The parent of the rollout's own work directory, which is made only if the env asks for it. */
  workDirectory: string;
  /** Aborted when the run stops: a queued rollout never starts, a running one is told to stop. */
  signal: AbortSignal;
  /**
   * The rollout's cache key as text (`rolloutCacheKeyText`): what names the same paid work
   * wherever it is asked for, so a distributed executor can give it one job across a resume.
   * Absent when the caller has no cache key (an executor used outside `evaluateSkill`).
   */
  rolloutCacheKey?: string;
  /** The hash of `skill` (`skillHash`), so an executor need not hash it again. */
  skillHash?: string;
}

/**
 * Where rollouts run. Core hands every rollout it does not find in the cache to the run's
 * executor; the executor bounds how many are in flight at once (each provider's limiter, in the
 * backends, bounds the calls). The in-process executor runs them here; a distributed one runs
 * them on worker machines behind the same interface. Retries, exclusion and caching stay in core:
 * an executor runs one attempt and returns its result or throws what the attempt threw.
 */
export interface Executor {
  readonly id: string;
  /** The most rollouts it runs at once. */
  readonly maxRolloutsInFlight: number;
  runRollout(task: RolloutTask): Promise<RolloutResult>;
  /** Releases what the executor holds (connections, queues) when the run ends; `finished` tells whether it finished or stopped resumably. */
  close?(outcome: { finished: boolean }): Promise<void>;
}

/** Runs rollouts in this process, at most `maxRolloutsInFlight` at once, first come first served. */
export function createInProcessExecutor(options: { maxRolloutsInFlight: number }): Executor {
  const limit = options.maxRolloutsInFlight;
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit > 0)))
    throw new RangeError(`maxRolloutsInFlight must be a positive integer or Infinity, got ${limit}`);
  let inFlight = 0;
  const waiting: Array<() => void> = [];

  function acquire(signal: AbortSignal): Promise<void> {
    if (signal.aborted) return Promise.reject(signal.reason);
    if (inFlight < limit) {
      inFlight += 1;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const start = () => {
        signal.removeEventListener('abort', cancel);
        inFlight += 1;
        resolve();
      };
      const cancel = () => {
        const index = waiting.indexOf(start);
        if (index >= 0) waiting.splice(index, 1);
        reject(signal.reason);
      };
      waiting.push(start);
      signal.addEventListener('abort', cancel, { once: true });
    });
  }

  function release(): void {
    inFlight -= 1;
    waiting.shift()?.();
  }

  return {
    id: 'in-process',
    maxRolloutsInFlight: limit,
    async runRollout(task) {
      await acquire(task.signal);
      const directory = createRolloutWorkDirectory(task.workDirectory, task.item.id, task.sampleIndex);
      const rollout = Promise.resolve().then(() =>
        task.environment.rollout(task.item, {
          skill: task.skill,
          target: task.target,
          signal: task.signal,
          workDirectory: () => directory.path(),
          sampleIndex: task.sampleIndex,
          ...(task.phase === undefined ? {} : { phase: task.phase }),
        }),
      );
      // The slot and the directory are given back once the env's own work has settled, even when
      // the caller stopped waiting on an abort: an env that ignores its signal never writes into a
      // removed directory, and never runs beside more rollouts than the bound allows.
      void rollout
        .then(
          () => undefined,
          () => undefined,
        )
        .then(() => directory.remove())
        .catch(() => undefined)
        .finally(release);
      return rollout;
    },
  };
}
