import { createHash } from 'node:crypto';

/** Where one scope's limiter counts, in Redis. */
export interface RateLimitKeys {
  /** The limits the first process set, which every other one must match. */
  readonly limits: string;
  /** Waiting calls in arrival order: ticket → sequence number. */
  readonly queue: string;
  /** When each waiting call's process last asked (its lease): ticket → expiry. */
  readonly waiters: string;
  /** Each waiting call's estimated tokens: ticket → tokens. */
  readonly estimates: string;
  /** The counter that numbers arrivals. */
  readonly sequence: string;
  /** Calls in flight: ticket → expiry of the lease their process renews. */
  readonly active: string;
  /** Calls started within the rolling minute: ticket → start time. */
  readonly window: string;
  /** What each call of the window is charged: ticket → tokens. */
  readonly tokens: string;
  /** The sum of `tokens`, kept so that asking costs no walk over the window. */
  readonly tokenTotal: string;
}

export const DEFAULT_RATE_LIMIT_KEY_PREFIX = 'skillopt:rate-limits:';

/**
 * The keys of the limiter kept under a registry's scope key. The scope key holds the provider and
 * the endpoint (and a digest of the credential); only a digest of the whole enters Redis, so the
 * keys say nothing about whom a run calls. The braces make all of one limiter's keys a Redis
 * Cluster hash tag, which its scripts need to touch them together.
 */
export function rateLimitKeys(prefix: string, scopeKey: string): RateLimitKeys {
  const digest = createHash('sha256').update(scopeKey).digest('hex').slice(0, 32);
  const base = `${prefix}{${digest}}:`;
  return {
    limits: `${base}limits`,
    queue: `${base}queue`,
    waiters: `${base}waiters`,
    estimates: `${base}estimates`,
    sequence: `${base}sequence`,
    active: `${base}active`,
    window: `${base}window`,
    tokens: `${base}tokens`,
    tokenTotal: `${base}token-total`,
  };
}
