import { ERROR_CODES, ProviderError, providerErrorAfterAttempts } from '@skillopt/contract';
import { abortable, abortReason, requirePositiveInteger, sleep as realSleep } from '@skillopt/runtime-kit';
import { isRetryableError } from './retryable.js';

export interface RetryOptions {
  /**
   * Attempts that may fail for a reason other than a rate limit, the first included. Default 3.
   * A rate-limited attempt does not use one up: it is bounded by `maxRateLimitWaitMs` instead
   * (except that 1 means no retry of any kind).
   */
  maxAttempts?: number;
  /**
   * The longest a call may wait in all for rate limits (retryable `provider-rate-limited` errors,
   * HTTP 429): the provider's `retry-after` waits, or the backoff when it sent none, each counted
   * as at least `baseDelayMs`. Once the next wait would pass it, the rate limit is thrown.
   * Default 300 000 ms (five minutes).
   */
  maxRateLimitWaitMs?: number;
  /** The backoff ceiling of the first retry; it doubles with each retry. Default 500 ms. */
  baseDelayMs?: number;
  /** The largest backoff ceiling, whatever the attempt. Default 30 000 ms. */
  maxDelayMs?: number;
  /**
   * The longest wait a provider's `retry-after` may impose. A larger request is cut to this, so a
   * provider asking for an hour does not stall a run for an hour. Default 60 000 ms.
   */
  maxRetryAfterMs?: number;
  /** Cancels the whole thing, including a backoff in progress; rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** Whether a failure is worth another attempt. Default: `isRetryableError`. */
  shouldRetry?: (error: unknown, attempt: number) => boolean;
  /** Called before each wait, for logging: the attempt that failed (1-based), the wait, the error. */
  onRetry?: (attempt: number, delayMs: number, error: unknown) => void;
  /** A number in [0, 1); injectable so tests get a known jitter. Default Math.random. */
  random?: () => number;
  /** Waits; injectable so tests do not wait in real time. Default: an abortable setTimeout. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

const DEFAULT_MAX_ATTEMPTS = 3;
const DEFAULT_BASE_DELAY_MS = 500;
const DEFAULT_MAX_DELAY_MS = 30_000;
const DEFAULT_MAX_RETRY_AFTER_MS = 60_000;
const DEFAULT_MAX_RATE_LIMIT_WAIT_MS = 300_000;

/**
 * Runs `operation` until it succeeds, fails with something not worth retrying, or runs out of
 * attempts; then rethrows the last error unchanged, so callers see the provider's own error.
 *
 * Between attempts it waits a full-jitter exponential backoff (a uniform draw from
 * [0, min(maxDelayMs, baseDelayMs·2^(retry−1))), `retry` counting the failures of the same kind,
 * rate limits or the others), which spreads many clients hitting the same limit instead of having
 * them retry in lockstep. When the failure is a ProviderError with
 * `retryAfterMs`, the provider's wish replaces the backoff, capped at `maxRetryAfterMs`.
 *
 * A rate limit is not a failure of the call but the provider asking it to come back later, so it
 * is bounded by the time waited (`maxRateLimitWaitMs`), not by `maxAttempts`: counting it as a
 * failure gave up a call after a few waits of milliseconds, under a burst of 429s that any
 * patient client gets through.
 */
export async function withRetry<T>(operation: (attempt: number) => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  requirePositiveInteger('withRetry: maxAttempts', maxAttempts);
  const maxRateLimitWaitMs = options.maxRateLimitWaitMs ?? DEFAULT_MAX_RATE_LIMIT_WAIT_MS;
  const shouldRetry = options.shouldRetry ?? isRetryableError;
  const sleep = options.sleep ?? realSleep;
  const { signal } = options;
  let failedAttempts = 0;
  let rateLimitedAttempts = 0;
  let rateLimitWaitMs = 0;

  for (let attempt = 1; ; attempt++) {
    if (signal?.aborted) throw abortReason(signal);
    try {
      return await operation(attempt);
    } catch (error) {
      // A failure caused by the caller's own abort is the abort, not a provider problem.
      if (signal?.aborted) throw abortReason(signal);
      const rateLimited = isRateLimit(error);
      if (rateLimited) rateLimitedAttempts += 1;
      else failedAttempts += 1;
      // Each kind backs off by its own count, so a burst of 429s does not stretch the backoff of a 500.
      const delayMs = retryDelay(error, rateLimited ? rateLimitedAttempts : failedAttempts, options);
      const rateLimitCharge = Math.max(delayMs, options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS);
      // One attempt in all means no retry of any kind.
      const spent = rateLimited ? maxAttempts === 1 || rateLimitWaitMs + rateLimitCharge > maxRateLimitWaitMs : failedAttempts >= maxAttempts;
      if (spent || !shouldRetry(error, attempt)) {
        // A transient failure that outlived every attempt is marked spent, so no layer above runs it again.
        if (attempt > 1 && ProviderError.isInstance(error) && error.retryable && error.attempts === undefined) throw providerErrorAfterAttempts(error, attempt);
        throw error;
      }
      if (rateLimited) rateLimitWaitMs += rateLimitCharge;
      options.onRetry?.(attempt, delayMs, error);
      await abortable(sleep(delayMs, signal), signal);
    }
  }
}

function isRateLimit(error: unknown): boolean {
  return ProviderError.isInstance(error) && error.retryable && error.code === ERROR_CODES.providerRateLimited;
}

/**
 * The wait after failed attempt `attempt` (1-based): the provider's `retry-after` when it gave
 * one, the full-jitter backoff otherwise.
 */
export function retryDelay(error: unknown, attempt: number, options: RetryOptions = {}): number {
  const maxRetryAfterMs = options.maxRetryAfterMs ?? DEFAULT_MAX_RETRY_AFTER_MS;
  if (ProviderError.isInstance(error) && error.retryAfterMs !== undefined && error.retryAfterMs >= 0) return Math.min(error.retryAfterMs, maxRetryAfterMs);
  return backoffDelay(attempt, options);
}

/** Full jitter: uniform in [0, min(maxDelayMs, baseDelayMs · 2^(attempt−1))). */
export function backoffDelay(attempt: number, options: Pick<RetryOptions, 'baseDelayMs' | 'maxDelayMs' | 'random'> = {}): number {
  const baseDelayMs = options.baseDelayMs ?? DEFAULT_BASE_DELAY_MS;
  const maxDelayMs = options.maxDelayMs ?? DEFAULT_MAX_DELAY_MS;
  const random = options.random ?? Math.random;
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(random() * ceiling);
}
