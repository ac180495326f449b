import { randomUUID } from 'node:crypto';
import type { RateLimiter, RateLimiterState, RateLimitPermit, RateLimitRunOptions, RateLimits } from '@skillopt/backends-kit';
import type { Usage } from '@skillopt/contract';
import { abortReason, invalidOption, requireNonNegativeNumber } from '@skillopt/runtime-kit';
import type { Redis } from 'ioredis';
import type { RateLimitKeys } from './rate-limit-keys.js';
import { limitsText, parseLimitsText } from './rate-limits-text.js';
import { ADMIT_SCRIPT, LEAVE_SCRIPT, RELEASE_SCRIPT, RENEW_SCRIPT, runScript, SETTLE_SCRIPT } from './rate-limit-scripts.js';

const WINDOW_MS = 60_000;
const UNLIMITED = -1;

/** How a Redis-counted limiter waits and holds its slots. */
export interface RedisRateLimiterTiming {
  /** How long a call in flight holds its slot without its process renewing it. */
  readonly leaseMilliseconds: number;
  /** How long a waiting call keeps its place in the queue without its process asking again. */
  readonly waiterLeaseMilliseconds: number;
  /** The longest a waiting call sleeps before asking again. */
  readonly pollIntervalMilliseconds: number;
  /** The clock in milliseconds; undefined: the Redis server's. */
  readonly now: (() => number) | undefined;
  readonly sleep: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface RedisRateLimiterOptions {
  readonly connection: Redis;
  readonly keys: RateLimitKeys;
  readonly limits: RateLimits;
  /** The error for limits that differ from those another process set first. */
  readonly conflictError: (existing: RateLimits) => Error;
  readonly timing: RedisRateLimiterTiming;
}

type AdmitReply = [status: 'admitted' | 'wait' | 'busy' | 'queued' | 'conflict', wait: number, requests: number, tokens: string, storedLimits: string];

function tokenCount(actual: number | Usage): number {
  const tokens = typeof actual === 'number' ? actual : actual.inputTokens + actual.outputTokens;
  if (!Number.isFinite(tokens) || tokens < 0) throw invalidOption(`settle: token count must be a number of at least 0, got ${tokens}`);
  return tokens;
}

/**
 * A limiter whose counts live in Redis, shared by every process that reaches the same keys: the
 * same limits as backends-kit's in-process limiter (concurrency, and requests and tokens per
 * rolling minute), the same queue discipline (first come, first served) across processes.
 *
 * Each call takes a ticket; a Lua script admits it atomically when it and every call queued
 * before it fit. A waiting call asks again when the script says its budget frees up, when a call
 * of this process ends or settles, and at least every poll interval (calls ending in other
 * processes are noticed then). A call in flight holds a lease its process renews every third of
 * the lease, so a killed process's slots come free when their leases run out.
 *
 * Redis errors while asking reject the call (ioredis itself retries while reconnecting); errors
 * while releasing, renewing or settling are ignored, as the lease and the window free what they
 * would have freed.
 */
export function createRedisRateLimiter(options: RedisRateLimiterOptions): RateLimiter {
  const { connection, keys, limits, conflictError, timing } = options;
  const text = limitsText(limits);
  const maxConcurrency = limits.maxConcurrency ?? UNLIMITED;
  const requestsPerMinute = limits.requestsPerMinute ?? UNLIMITED;
  const tokensPerMinute = limits.tokensPerMinute ?? UNLIMITED;
  const clockArgument = (): string => (timing.now === undefined ? '' : String(timing.now()));

  const activeTickets = new Set<string>();
  const pendingSettlements = new Set<Promise<void>>();
  const sleepers = new Set<AbortController>();
  let queued = 0;
  let lastSeen = { requests: 0, tokens: 0 };
  let renewal: NodeJS.Timeout | undefined;

  function wakeLocalWaiters(): void {
    for (const sleeper of sleepers) sleeper.abort();
  }

  async function pause(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
    // Aborted while the last ask was on its way: an abort listener added now would never fire.
    if (signal?.aborted) return;
    const sleeper = new AbortController();
    const onAbort = (): void => sleeper.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    sleepers.add(sleeper);
    try {
      await timing.sleep(milliseconds, sleeper.signal);
    } catch {
      // Woken early: by an abort (seen by the caller) or by a call of this process ending.
    } finally {
      sleepers.delete(sleeper);
      signal?.removeEventListener('abort', onAbort);
    }
  }

  async function leave(ticket: string): Promise<void> {
    await runScript(connection, LEAVE_SCRIPT, [keys.queue, keys.waiters, keys.estimates], [ticket]).catch(() => undefined);
  }

  async function release(ticket: string): Promise<void> {
    // A call's settlement reaches Redis before its slot is freed, so whoever takes the slot sees it.
    await Promise.all(pendingSettlements);
    activeTickets.delete(ticket);
    if (activeTickets.size === 0 && renewal !== undefined) {
      clearInterval(renewal);
      renewal = undefined;
    }
    await runScript(connection, RELEASE_SCRIPT, [keys.active], [ticket]).catch(() => undefined);
    wakeLocalWaiters();
  }

  function holdLease(ticket: string): void {
    activeTickets.add(ticket);
    if (renewal !== undefined) return;
    renewal = setInterval(
      () => {
        if (activeTickets.size === 0) return;
        runScript(connection, RENEW_SCRIPT, [keys.active, keys.limits], [clockArgument(), timing.leaseMilliseconds, ...activeTickets]).catch(() => undefined);
      },
      Math.max(1, Math.floor(timing.leaseMilliseconds / 3)),
    );
    // The calls in flight keep the process alive; the renewal alone must not.
    renewal.unref();
  }

  async function admit(ticket: string, estimatedTokens: number): Promise<AdmitReply> {
    const reply = (await runScript(
      connection,
      ADMIT_SCRIPT,
      [keys.limits, keys.queue, keys.waiters, keys.estimates, keys.sequence, keys.active, keys.window, keys.tokens, keys.tokenTotal],
      [
        clockArgument(),
        ticket,
        text,
        maxConcurrency,
        requestsPerMinute,
        tokensPerMinute,
        estimatedTokens,
        timing.leaseMilliseconds,
        timing.waiterLeaseMilliseconds,
        WINDOW_MS,
      ],
    )) as AdmitReply;
    if (reply[0] !== 'conflict') lastSeen = { requests: Number(reply[2]), tokens: Number(reply[3]) };
    return reply;
  }

  async function waitForAdmission(ticket: string, estimatedTokens: number, signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      if (signal?.aborted) {
        await leave(ticket);
        throw abortReason(signal);
      }
      let reply: AdmitReply;
      try {
        reply = await admit(ticket, estimatedTokens);
      } catch (error) {
        await leave(ticket);
        throw error;
      }
      const [status, wait, , , storedLimits] = reply;
      if (status === 'conflict') throw conflictError(parseLimitsText(storedLimits));
      if (status === 'admitted') {
        holdLease(ticket);
        if (!signal?.aborted) return;
        // Aborted while the admission was on its way: the call is not made, its slot is freed.
        await release(ticket);
        throw abortReason(signal);
      }
      await pause(status === 'wait' ? Math.min(wait, timing.pollIntervalMilliseconds) : timing.pollIntervalMilliseconds, signal);
    }
  }

  async function run<T>(task: (permit: RateLimitPermit) => Promise<T>, runOptions: RateLimitRunOptions = {}): Promise<T> {
    const estimatedTokens = runOptions.estimatedTokens ?? 0;
    requireNonNegativeNumber('estimatedTokens', estimatedTokens);
    const { signal } = runOptions;
    if (signal?.aborted) throw abortReason(signal);
    const ticket = randomUUID();
    queued++;
    try {
      await waitForAdmission(ticket, estimatedTokens, signal);
    } finally {
      queued--;
    }
    const permit: RateLimitPermit = {
      settle(actualTokens) {
        const tokens = tokenCount(actualTokens);
        const settlement: Promise<void> = runScript(connection, SETTLE_SCRIPT, [keys.tokens, keys.tokenTotal], [ticket, tokens])
          .then(wakeLocalWaiters, () => undefined)
          .then(() => {
            pendingSettlements.delete(settlement);
          });
        pendingSettlements.add(settlement);
      },
    };
    try {
      return await task(permit);
    } finally {
      await release(ticket);
    }
  }

  function state(): RateLimiterState {
    return { active: activeTickets.size, queued, requestsInWindow: lastSeen.requests, tokensInWindow: lastSeen.tokens };
  }

  return { run, state };
}
