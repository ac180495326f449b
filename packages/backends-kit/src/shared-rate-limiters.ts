import { createHash } from 'node:crypto';
import { redactSecretText } from '@skillopt/contract';
import { backendConfigError } from './backend-config.js';
import type { RateLimiter, RateLimiterState, RateLimitPermit, RateLimitRunOptions } from './rate-limiter.js';
import { processRateLimiterStore } from './process-rate-limiter-store.js';
import { createInMemoryRateLimiterStore, type RateLimiterStore, type RateLimits } from './rate-limiter-store.js';

/**
 * What one rate limit covers. Providers count per account and endpoint, so every model and runner
 * that reaches the same endpoint with the same credential shares one limiter, whichever backend
 * instance or role created it: a target and an optimizer on one deployment stay inside its limits
 * together.
 */
export interface RateLimitScope {
  /** The provider, as models report it (`openai`, `azure-openai`, `anthropic`). */
  provider: string;
  /** Where the requests go, as precisely as the provider's limit applies (a base URL, a deployment's URL). No credentials in it. */
  endpoint: string;
  /** The API key (or other credential) the requests carry; only a digest of it is kept. Absent: no key. */
  credential?: string;
  /** The backend whose config set the limits, named in errors. */
  backendId: string;
}

export interface RateLimiterRegistry {
  /**
   * The limiter of `scope`. With `limits`, the scope's limiter is created with them, or must
   * already have the same ones: two settings for one provider's limit are a contradiction in the
   * config, reported as a `config-invalid` error. Without limits, calls go through whatever
   * limiter the scope has when they are made (another model may set one up later); while it has
   * none, through the scope's default limiter, created with `defaults.limits` (the backend's
   * documented default, which any configured limit overrides), or at once when there are none.
   */
  limiterFor(scope: RateLimitScope, limits?: RateLimits, defaults?: { limits: RateLimits }): RateLimiter;
}

/** A stable key for a scope; the credential enters only as a short digest. */
export function rateLimitScopeKey(scope: RateLimitScope): string {
  const credential = scope.credential === undefined || scope.credential === '' ? '-' : createHash('sha256').update(scope.credential).digest('hex').slice(0, 16);
  return [scope.provider, scope.endpoint.replace(/\/+$/, ''), credential].join('\u0000');
}

const LIMIT_NAMES: ReadonlyArray<[keyof RateLimits, string]> = [
  ['maxConcurrency', 'max_concurrency'],
  ['requestsPerMinute', 'requests_per_minute'],
  ['tokensPerMinute', 'tokens_per_minute'],
];

function hasAnyLimit(limits: RateLimits | undefined): limits is RateLimits {
  return limits !== undefined && LIMIT_NAMES.some(([name]) => limits[name] !== undefined);
}

function describeLimits(limits: RateLimits): string {
  const parts = LIMIT_NAMES.filter(([name]) => limits[name] !== undefined).map(([name, key]) => `${key} ${limits[name]}`);
  return parts.length > 0 ? parts.join(', ') : 'no limits';
}

function sameLimits(first: RateLimits, second: RateLimits): boolean {
  return LIMIT_NAMES.every(([name]) => first[name] === second[name]);
}

function conflictingLimitsError(scope: RateLimitScope, existing: RateLimits, requested: RateLimits): Error {
  return backendConfigError(
    scope.backendId,
    `two models reach ${redactSecretText(scope.endpoint)} (${scope.provider}) with the same credential, so they share one rate limit, but they were given different limits (${describeLimits(existing)}; ${describeLimits(requested)}): set the limits once, at the top of the section`,
    { provider: scope.provider },
  );
}

const IMMEDIATE_PERMIT: RateLimitPermit = { settle: () => undefined };

/**
 * A limiter that defers to whatever limiter its scope has at the time of each call, else to the
 * scope's default one (kept beside it under its own key, so a configured limit never conflicts
 * with a default).
 */
function deferringLimiter(store: RateLimiterStore, key: string, defaultLimits: RateLimits | undefined): RateLimiter {
  const current = () => store.find(key) ?? (hasAnyLimit(defaultLimits) ? store.obtain(`${key}\u0000default`, defaultLimits) : undefined);
  return {
    run<T>(task: (permit: RateLimitPermit) => Promise<T>, options?: RateLimitRunOptions): Promise<T> {
      const stored = current();
      if (stored) return stored.limiter.run(task, options);
      if (options?.signal?.aborted) return Promise.reject(options.signal.reason);
      return task(IMMEDIATE_PERMIT);
    },
    state(): RateLimiterState {
      return current()?.limiter.state() ?? { active: 0, queued: 0, requestsInWindow: 0, tokensInWindow: 0 };
    },
  };
}

/** A registry over `store` (default: this process's memory). */
export function createRateLimiterRegistry(store: RateLimiterStore = createInMemoryRateLimiterStore()): RateLimiterRegistry {
  return {
    limiterFor(scope, limits, defaults) {
      const key = rateLimitScopeKey(scope);
      if (!hasAnyLimit(limits)) return deferringLimiter(store, key, defaults?.limits);
      const existing = store.find(key);
      if (existing && !sameLimits(existing.limits, limits)) throw conflictingLimitsError(scope, existing.limits, limits);
      return store.obtain(key, limits, { conflictError: (shared) => conflictingLimitsError(scope, shared, limits) }).limiter;
    },
  };
}

/**
 * The registry every backend of this process uses unless it is handed another one. Its limiters
 * live in the store `useRateLimiterStore` installed, by default in this process's memory.
 */
export const processRateLimiters: RateLimiterRegistry = createRateLimiterRegistry(processRateLimiterStore);
