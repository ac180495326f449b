import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A Lua script, sent once per connection and server, then run by its digest. */
export interface RedisScript {
  readonly source: string;
  readonly sha1: string;
}

function script(source: string): RedisScript {
  return { source, sha1: createHash('sha1').update(source).digest('hex') };
}

/**
 * Runs `redisScript` by its digest, sending its source when the server does not know it (first
 * use, or a server restarted since).
 */
export async function runScript(connection: Redis, redisScript: RedisScript, keys: readonly string[], args: readonly (string | number)[]): Promise<unknown> {
  try {
    return await connection.evalsha(redisScript.sha1, keys.length, ...keys, ...args);
  } catch (error) {
    if (!(error instanceof Error) || !error.message.startsWith('NOSCRIPT')) throw error;
    return connection.eval(redisScript.source, keys.length, ...keys, ...args);
  }
}

// The first argument of every script is the time in milliseconds, or '' for the server's own
// clock: one clock for every machine, so their clocks' skew cannot stretch or shrink a window.
const CLOCK = `
local function clock()
  if ARGV[1] ~= '' then return tonumber(ARGV[1]) end
  local time = redis.call('TIME')
  return tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
end
`;

// Keys idle this long vanish, so a finished run leaves nothing behind; any use renews them.
const IDLE_EXPIRY_MS = 3_600_000;

/**
 * Asks to start one call. KEYS: limits, queue, waiters, estimates, sequence, active, window,
 * tokens, token total. ARGV: now, ticket, limits text, max concurrency, requests per minute, tokens per minute
 * (-1: unlimited), estimated tokens, lease, waiter lease, window length (milliseconds).
 *
 * Replies { status, wait, requests in window, tokens in window, limits set by another process },
 * status being `admitted`, `wait` (the head of the queue, for `wait` ms of budget), `busy` (the
 * head, for a free slot), `queued` (behind others) or `conflict` (the limits differ).
 *
 * Waiting calls are served in arrival order across all processes: a call is admitted only when
 * everything ahead of it fits too (counting their slots, requests and estimated tokens), so a
 * later call never takes what an earlier one waits for, yet several can start at once without
 * each waiting for the one ahead to poll. A waiter whose process stopped asking (killed) loses
 * its place when its lease runs out; a call in flight whose lease runs out frees its slot.
 */
export const ADMIT_SCRIPT = script(`${CLOCK}
local now = clock()
local ticket = ARGV[2]
local stored = redis.call('GET', KEYS[1])
if not stored then
  redis.call('SET', KEYS[1], ARGV[3])
elseif stored ~= ARGV[3] then
  return {'conflict', 0, 0, '0', stored}
end
local maxConcurrency = tonumber(ARGV[4])
local requestsPerMinute = tonumber(ARGV[5])
local tokensPerMinute = tonumber(ARGV[6])
local estimated = tonumber(ARGV[7])
local lease = tonumber(ARGV[8])
local waiterLease = tonumber(ARGV[9])
local windowLength = tonumber(ARGV[10])

for _, gone in ipairs(redis.call('ZRANGEBYSCORE', KEYS[3], '-inf', now)) do
  redis.call('ZREM', KEYS[2], gone)
  redis.call('HDEL', KEYS[4], gone)
end
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[6], '-inf', now)
for _, old in ipairs(redis.call('ZRANGEBYSCORE', KEYS[7], '-inf', now - windowLength)) do
  redis.call('INCRBYFLOAT', KEYS[9], -(tonumber(redis.call('HGET', KEYS[8], old)) or 0))
  redis.call('HDEL', KEYS[8], old)
end
redis.call('ZREMRANGEBYSCORE', KEYS[7], '-inf', now - windowLength)
local requests = redis.call('ZCARD', KEYS[7])
-- An empty window starts its sum afresh, so rounding never accumulates.
if requests == 0 then redis.call('DEL', KEYS[9]) end
local used = math.max(0, tonumber(redis.call('GET', KEYS[9])) or 0)
local active = redis.call('ZCARD', KEYS[6])

if not redis.call('ZSCORE', KEYS[2], ticket) then
  redis.call('ZADD', KEYS[2], redis.call('INCR', KEYS[5]), ticket)
  redis.call('HSET', KEYS[4], ticket, ARGV[7])
end
redis.call('ZADD', KEYS[3], now + waiterLease, ticket)
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ${IDLE_EXPIRY_MS}) end

-- A call larger than the whole budget waits for an empty window and then goes alone.
local function needed(tokens)
  if tokensPerMinute >= 0 then return math.min(tokens, tokensPerMinute) end
  return tokens
end
local function reply(status, wait)
  return {status, math.ceil(wait), requests, tostring(used), ''}
end

local rank = redis.call('ZRANK', KEYS[2], ticket)
if rank > 0 then
  if maxConcurrency >= 0 and active + rank + 1 > maxConcurrency then return reply('queued', 0) end
  if requestsPerMinute >= 0 and requests + rank + 1 > requestsPerMinute then return reply('queued', 0) end
  if tokensPerMinute >= 0 then
    local ahead = 0
    for _, other in ipairs(redis.call('ZRANGE', KEYS[2], 0, rank - 1)) do
      ahead = ahead + needed(tonumber(redis.call('HGET', KEYS[4], other)) or 0)
    end
    if used + ahead + needed(estimated) > tokensPerMinute then return reply('queued', 0) end
  end
else
  if maxConcurrency >= 0 and active >= maxConcurrency then return reply('busy', 0) end
  local wait = 0
  if requestsPerMinute >= 0 and requests >= requestsPerMinute then
    local oldest = redis.call('ZRANGE', KEYS[7], requests - requestsPerMinute, requests - requestsPerMinute, 'WITHSCORES')
    wait = math.max(wait, tonumber(oldest[2]) + windowLength - now)
  end
  if tokensPerMinute >= 0 and used + needed(estimated) > tokensPerMinute then
    -- How long until enough of the window's oldest charges leave it.
    local remaining = used
    local entries = redis.call('ZRANGE', KEYS[7], 0, -1, 'WITHSCORES')
    for index = 1, #entries, 2 do
      remaining = remaining - (tonumber(redis.call('HGET', KEYS[8], entries[index])) or 0)
      if remaining + needed(estimated) <= tokensPerMinute then
        wait = math.max(wait, tonumber(entries[index + 1]) + windowLength - now)
        break
      end
    end
  end
  if wait > 0 then return reply('wait', wait) end
end

redis.call('ZREM', KEYS[2], ticket)
redis.call('ZREM', KEYS[3], ticket)
redis.call('HDEL', KEYS[4], ticket)
redis.call('ZADD', KEYS[6], now + lease, ticket)
if requestsPerMinute >= 0 or tokensPerMinute >= 0 then
  redis.call('ZADD', KEYS[7], now, ticket)
  redis.call('HSET', KEYS[8], ticket, ARGV[7])
  redis.call('INCRBYFLOAT', KEYS[9], estimated)
  requests = requests + 1
  used = used + estimated
end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ${IDLE_EXPIRY_MS}) end
return reply('admitted', 0)
`);

/**
 * Renews the leases of a process's calls in flight. KEYS: active, limits. ARGV: now, lease,
 * tickets. A lease that ran out (or vanished with a restarted server) is taken again: the call
 * is still running and still occupies one of the provider's slots.
 */
export const RENEW_SCRIPT = script(`${CLOCK}
local expiry = clock() + tonumber(ARGV[2])
for index = 3, #ARGV do redis.call('ZADD', KEYS[1], expiry, ARGV[index]) end
for _, key in ipairs(KEYS) do redis.call('PEXPIRE', key, ${IDLE_EXPIRY_MS}) end
return #ARGV - 2
`);

/** Frees a finished call's slot; its start stays in the window. KEYS: active. ARGV: ticket. */
export const RELEASE_SCRIPT = script(`
return redis.call('ZREM', KEYS[1], ARGV[1])
`);

/**
 * Replaces a call's estimated charge with what it used, while it is still in the window.
 * KEYS: tokens, token total. ARGV: ticket, tokens.
 */
export const SETTLE_SCRIPT = script(`
local charged = redis.call('HGET', KEYS[1], ARGV[1])
if not charged then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('INCRBYFLOAT', KEYS[2], tonumber(ARGV[2]) - tonumber(charged))
return 1
`);

/** Takes an aborted call out of the queue. KEYS: queue, waiters, estimates. ARGV: ticket. */
export const LEAVE_SCRIPT = script(`
redis.call('ZREM', KEYS[1], ARGV[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('HDEL', KEYS[3], ARGV[1])
return 1
`);
