import { createRateLimiter, type RateLimiter, type RateLimiterOptions } from './rate-limiter.js';

/** What a provider allows one credential at one endpoint; an absent entry is unlimited. */
export interface RateLimits {
  maxConcurrency?: number | undefined;
  requestsPerMinute?: number | undefined;
  tokensPerMinute?: number | undefined;
}

/** A limiter with the limits it was created with. */
export interface StoredRateLimiter {
  readonly limiter: RateLimiter;
  readonly limits: RateLimits;
}

export interface ObtainRateLimiterOptions {
  /**
   * The error for `limits` that differ from those another process already set for `key`. Only a
   * store shared between processes meets those, and only once it asks the shared place (when a
   * call is admitted); the registry checks this process's own limiters itself, at once.
   */
  conflictError?: (existing: RateLimits) => Error;
}

/**
 * Where the shared limiters live. The default keeps them in this process's memory; a distributed
 * executor, whose rollouts run on several machines against one provider account, replaces it with
 * a store whose limiters count in a shared place (Redis, say), behind this same interface
 * (`useRateLimiterStore` installs one for the whole process).
 */
export interface RateLimiterStore {
  /** The limiter kept under `key`, created with `limits` when there is none yet. */
  obtain(key: string, limits: RateLimits, options?: ObtainRateLimiterOptions): StoredRateLimiter;
  /** The limiter kept under `key`, if one was created. */
  find(key: string): StoredRateLimiter | undefined;
}

// With per-minute budgets alone there must still be some bound on concurrency; this one is never
// the limit in practice.
const UNBOUNDED_CONCURRENCY = 1_000_000;

/** The in-process store; `clock` is injectable so tests need not wait in real time. */
export function createInMemoryRateLimiterStore(clock: Pick<RateLimiterOptions, 'now' | 'sleep'> = {}): RateLimiterStore {
  const limiters = new Map<string, StoredRateLimiter>();
  return {
    obtain(key, limits) {
      let stored = limiters.get(key);
      if (stored === undefined) {
        const limiter = createRateLimiter({
          maxConcurrency: limits.maxConcurrency ?? UNBOUNDED_CONCURRENCY,
          ...(limits.requestsPerMinute === undefined ? {} : { requestsPerMinute: limits.requestsPerMinute }),
          ...(limits.tokensPerMinute === undefined ? {} : { tokensPerMinute: limits.tokensPerMinute }),
          ...clock,
        });
        stored = { limiter, limits: { ...limits } };
        limiters.set(key, stored);
      }
      return stored;
    },
    find: (key) => limiters.get(key),
  };
}
