import type { Usage } from '@skillopt/contract';
import { abortReason, invalidOption, requireNonNegativeNumber, requirePositiveInteger, sleep as realSleep } from '@skillopt/runtime-kit';

export interface RateLimiterOptions {
  /** Calls in flight at once. */
  maxConcurrency: number;
  /** Calls started within any rolling 60-second window; unlimited when absent. */
  requestsPerMinute?: number;
  /** Tokens (input + output) charged within any rolling 60-second window; unlimited when absent. */
  tokensPerMinute?: number;
  /** The clock in milliseconds; injectable for tests. Default Date.now. */
  now?: () => number;
  /** Waits until budget frees up; injectable for tests. Default: an abortable setTimeout. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface RateLimitRunOptions {
  /**
   * The tokens this call is expected to use (prompt plus expected output), charged against
   * `tokensPerMinute` when it starts. Default 0. `estimateTokens` gives a rough figure.
   */
  estimatedTokens?: number;
  /** Leaves the queue when aborted, rejecting with the signal's reason. A started task is not stopped. */
  signal?: AbortSignal | undefined;
}

/** Handed to each task, to correct its token charge once the provider has reported usage. */
export interface RateLimitPermit {
  /**
   * Replaces the estimated charge with what the call really used (a count, or a Usage whose input
   * and output tokens are added). Without it the estimate stays charged, failures included, since
   * providers count the tokens of a request they rejected too.
   */
  settle(actualTokens: number | Usage): void;
}

export interface RateLimiterState {
  active: number;
  queued: number;
  requestsInWindow: number;
  tokensInWindow: number;
}

export interface RateLimiter {
  run<T>(task: (permit: RateLimitPermit) => Promise<T>, options?: RateLimitRunOptions): Promise<T>;
  /** A snapshot, for logs and tests. */
  state(): RateLimiterState;
}

const WINDOW_MS = 60_000;

interface WindowEntry {
  readonly startedAt: number;
  tokens: number;
}

interface QueuedTask {
  readonly estimatedTokens: number;
  admit(startedAt: number): void;
}

/**
 * A limiter that keeps a backend inside its provider's limits: at most `maxConcurrency` calls at
 * once, and per rolling minute at most `requestsPerMinute` starts and `tokensPerMinute` tokens.
 *
 * A rolling window (rather than a token bucket) mirrors how providers count, so a limiter set to
 * the provider's published figures does not trip them. Waiting tasks start strictly first-in,
 * first-out: a large request at the head is not overtaken by small ones behind it, which would
 * otherwise starve it forever under load. A single request larger than `tokensPerMinute` waits
 * for an empty window and then goes alone, rather than waiting forever.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const { maxConcurrency, requestsPerMinute, tokensPerMinute } = options;
  requirePositiveInteger('maxConcurrency', maxConcurrency);
  if (requestsPerMinute !== undefined) requirePositiveInteger('requestsPerMinute', requestsPerMinute);
  if (tokensPerMinute !== undefined) requirePositiveInteger('tokensPerMinute', tokensPerMinute);
  const now = options.now ?? Date.now;
  const sleep = options.sleep ?? realSleep;
  const tracksWindow = requestsPerMinute !== undefined || tokensPerMinute !== undefined;

  const queue: QueuedTask[] = [];
  const window: WindowEntry[] = [];
  let active = 0;
  let wakeAt: number | undefined;
  let wakeController: AbortController | undefined;

  function forgetExpired(time: number): void {
    while (window.length > 0 && time - (window[0] as WindowEntry).startedAt >= WINDOW_MS) window.shift();
  }

  /** How long until a task of `tokens` fits both per-minute budgets; 0 when it fits now. */
  function budgetWait(tokens: number, time: number): number {
    let wait = 0;
    if (requestsPerMinute !== undefined && window.length >= requestsPerMinute) {
      const mustExpire = window[window.length - requestsPerMinute] as WindowEntry;
      wait = Math.max(wait, mustExpire.startedAt + WINDOW_MS - time);
    }
    if (tokensPerMinute !== undefined) {
      const needed = Math.min(tokens, tokensPerMinute);
      let used = window.reduce((sum, entry) => sum + entry.tokens, 0);
      if (used + needed > tokensPerMinute) {
        for (const entry of window) {
          used -= entry.tokens;
          if (used + needed <= tokensPerMinute) {
            wait = Math.max(wait, entry.startedAt + WINDOW_MS - time);
            break;
          }
        }
      }
    }
    return wait;
  }

  function startWaitingTasks(): void {
    while (queue.length > 0 && active < maxConcurrency) {
      const head = queue[0] as QueuedTask;
      const time = now();
      forgetExpired(time);
      const wait = budgetWait(head.estimatedTokens, time);
      if (wait > 0) {
        wakeUpAt(time + wait);
        return;
      }
      queue.shift();
      head.admit(time);
    }
    if (queue.length === 0) cancelWakeUp();
  }

  // One pending wake-up at a time: the earliest needed. A superseded one is aborted (a test sleep
  // may ignore that, so its resolution is also ignored by identity).
  function wakeUpAt(time: number): void {
    if (wakeAt !== undefined && wakeAt <= time) return;
    wakeController?.abort();
    const controller = new AbortController();
    wakeController = controller;
    wakeAt = time;
    sleep(time - now(), controller.signal).then(
      () => {
        if (wakeController !== controller) return;
        wakeController = undefined;
        wakeAt = undefined;
        startWaitingTasks();
      },
      () => undefined,
    );
  }

  function cancelWakeUp(): void {
    // Without this a real timer would keep Node alive for up to a minute after the last task.
    wakeController?.abort();
    wakeController = undefined;
    wakeAt = undefined;
  }

  function run<T>(task: (permit: RateLimitPermit) => Promise<T>, runOptions: RateLimitRunOptions = {}): Promise<T> {
    const estimatedTokens = runOptions.estimatedTokens ?? 0;
    requireNonNegativeNumber('estimatedTokens', estimatedTokens);
    const { signal } = runOptions;
    if (signal?.aborted) return Promise.reject(abortReason(signal));

    return new Promise<T>((resolve, reject) => {
      const onAbort = (): void => {
        const index = queue.indexOf(queued);
        if (index < 0) return;
        queue.splice(index, 1);
        reject(abortReason(signal as AbortSignal));
        // The aborted task may have been the head holding everyone else back.
        startWaitingTasks();
      };
      const queued: QueuedTask = {
        estimatedTokens,
        admit(startedAt) {
          signal?.removeEventListener('abort', onAbort);
          const entry: WindowEntry = { startedAt, tokens: estimatedTokens };
          if (tracksWindow) window.push(entry);
          active++;
          const permit: RateLimitPermit = {
            settle(actualTokens) {
              entry.tokens = tokenCount(actualTokens);
              startWaitingTasks();
            },
          };
          const release = (): void => {
            active--;
            startWaitingTasks();
          };
          let result: Promise<T>;
          try {
            result = Promise.resolve(task(permit));
          } catch (error) {
            result = Promise.reject(error);
          }
          result.then(
            (value) => {
              release();
              resolve(value);
            },
            (error: unknown) => {
              release();
              reject(error);
            },
          );
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      queue.push(queued);
      startWaitingTasks();
    });
  }

  function state(): RateLimiterState {
    forgetExpired(now());
    return {
      active,
      queued: queue.length,
      requestsInWindow: window.length,
      tokensInWindow: window.reduce((sum, entry) => sum + entry.tokens, 0),
    };
  }

  return { run, state };
}

function tokenCount(actual: number | Usage): number {
  const tokens = typeof actual === 'number' ? actual : actual.inputTokens + actual.outputTokens;
  if (!Number.isFinite(tokens) || tokens < 0) throw invalidOption(`settle: token count must be a number of at least 0, got ${tokens}`);
  return tokens;
}
