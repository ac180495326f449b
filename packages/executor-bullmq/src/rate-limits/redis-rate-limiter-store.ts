import type { ObtainRateLimiterOptions, RateLimiterStore, RateLimits, StoredRateLimiter } from '@skillopt/backends-kit';
import { invalidOption, sleep as realSleep, requirePositiveInteger } from '@skillopt/runtime-kit';
import { Redis } from 'ioredis';
import { DEFAULT_RATE_LIMIT_KEY_PREFIX, rateLimitKeys } from './rate-limit-keys.js';
import { createRedisRateLimiter, type RedisRateLimiterTiming } from './redis-rate-limiter.js';

export interface RedisRateLimiterStoreOptions {
  /**
   * The Redis to count in: an ioredis client (left open by `close`, as its owner may still use
   * it) or a `redis://` URL (connected here, closed by `close`). Every process that should share
   * limits uses the same server and key prefix.
   */
  connection: Redis | string;
  /** Prefix of every key; default `skillopt:rate-limits:`. */
  keyPrefix?: string;
  /** How long a call in flight holds its slot unless its process renews it (every third of this); default 30 000 ms. */
  leaseMilliseconds?: number;
  /** How long a waiting call keeps its place unless its process asks again; default 10 000 ms. */
  waiterLeaseMilliseconds?: number;
  /** The longest a waiting call sleeps before asking again; default 100 ms. */
  pollIntervalMilliseconds?: number;
  /** The clock in milliseconds, for tests; default the Redis server's (one clock for all machines). */
  now?: () => number;
  /** Waits between asks; injectable for tests. Default an abortable setTimeout. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

/** A rate limiter store whose limiters count in Redis. */
export interface RedisRateLimiterStore extends RateLimiterStore {
  /** Closes the connection when the store opened it from a URL. */
  close(): Promise<void>;
}

const DEFAULT_LEASE_MS = 30_000;
const DEFAULT_WAITER_LEASE_MS = 10_000;
const DEFAULT_POLL_INTERVAL_MS = 100;

/**
 * A store for backends-kit's rate limiter registry whose limiters count in Redis, so every
 * process using the same Redis (the workers of a distributed run and its trainer) shares one
 * provider's limits: calls in flight, requests and tokens per rolling minute, per scope (provider,
 * endpoint and a digest of the credential; Redis sees only a digest of these).
 *
 * The first process to admit a call under a scope sets its limits in Redis; a process whose
 * limits differ gets the registry's `config-invalid` error from that call, as two different
 * limits in one process get it at once. `find` knows only the limiters this process created.
 */
export function createRedisRateLimiterStore(options: RedisRateLimiterStoreOptions): RedisRateLimiterStore {
  const timing: RedisRateLimiterTiming = {
    leaseMilliseconds: options.leaseMilliseconds ?? DEFAULT_LEASE_MS,
    waiterLeaseMilliseconds: options.waiterLeaseMilliseconds ?? DEFAULT_WAITER_LEASE_MS,
    pollIntervalMilliseconds: options.pollIntervalMilliseconds ?? DEFAULT_POLL_INTERVAL_MS,
    now: options.now,
    sleep: options.sleep ?? realSleep,
  };
  requirePositiveInteger('leaseMilliseconds', timing.leaseMilliseconds);
  requirePositiveInteger('waiterLeaseMilliseconds', timing.waiterLeaseMilliseconds);
  requirePositiveInteger('pollIntervalMilliseconds', timing.pollIntervalMilliseconds);
  if (timing.pollIntervalMilliseconds >= timing.waiterLeaseMilliseconds)
    throw invalidOption(
      `pollIntervalMilliseconds (${timing.pollIntervalMilliseconds}) must be shorter than waiterLeaseMilliseconds (${timing.waiterLeaseMilliseconds}), or waiting calls lose their place between asks`,
    );
  const keyPrefix = options.keyPrefix ?? DEFAULT_RATE_LIMIT_KEY_PREFIX;
  const ownsConnection = typeof options.connection === 'string';
  const connection = typeof options.connection === 'string' ? new Redis(options.connection) : options.connection;
  // Without a listener ioredis prints each connection error to stderr; a call whose command fails gets the error itself.
  if (ownsConnection) connection.on('error', () => undefined);
  const limiters = new Map<string, StoredRateLimiter>();

  return {
    obtain(key: string, limits: RateLimits, obtainOptions: ObtainRateLimiterOptions = {}) {
      let stored = limiters.get(key);
      if (stored === undefined) {
        const copy = { ...limits };
        const limiter = createRedisRateLimiter({
          connection,
          keys: rateLimitKeys(keyPrefix, key),
          limits: copy,
          conflictError:
            obtainOptions.conflictError ??
            ((existing) =>
              invalidOption(
                `another process set different rate limits for this provider and credential in Redis (${JSON.stringify(existing)}): give every process the same limits`,
              )),
          timing,
        });
        stored = { limiter, limits: copy };
        limiters.set(key, stored);
      }
      return stored;
    },
    find: (key) => limiters.get(key),
    async close() {
      if (ownsConnection) await connection.quit();
    },
  };
}
