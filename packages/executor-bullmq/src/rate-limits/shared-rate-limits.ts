import { useRateLimiterStore } from '@skillopt/backends-kit';
import { openRedisConnection } from '../redis-connection.js';
import { createRedisRateLimiterStore } from './redis-rate-limiter-store.js';

/** Rate limits this process counts in Redis until `close`. */
export interface SharedRateLimits {
  /** Puts the process's previous limiters back and closes the Redis connection. */
  close(): Promise<void>;
}

/**
 * Makes every backend this process creates from now on count its provider's limits in the Redis
 * at `url`, together with every other process that did the same (the workers of a distributed run
 * and its trainer). Call it before the run's backends are created: a backend keeps the limiter it
 * was given when it was created.
 */
export function shareRateLimitsThroughRedis(options: { url: string; keyPrefix?: string }): SharedRateLimits {
  // A connection that waits out an outage, as the jobs' own do: a call waits for Redis to come back
  // rather than failing its rollout; the executor and the worker already say that Redis is away.
  const connection = openRedisConnection(options.url);
  const store = createRedisRateLimiterStore({ connection, ...(options.keyPrefix === undefined ? {} : { keyPrefix: options.keyPrefix }) });
  const restore = useRateLimiterStore(store);
  return {
    async close() {
      restore();
      await store.close();
      // Nothing is left to write once the run's calls are done (a lease left behind expires), and a
      // QUIT would wait for a Redis that is away: the connection is simply dropped.
      connection.disconnect();
    },
  };
}
