import { createRateLimiterRegistry, processRateLimiters, type RateLimiter, type RateLimitScope, useRateLimiterStore } from '@skillopt/backends-kit';
import { SkillOptError } from '@skillopt/contract';
import { sleep } from '@skillopt/runtime-kit';
import { Redis } from 'ioredis';
import { createRedisRateLimiterStore, type RedisRateLimiterStore, shareRateLimitsThroughRedis } from '../src/index';
import { rateLimitKeys } from '../src/rate-limits/rate-limit-keys';
import { startRedisServer, type TestRedisServer } from '../src/testing';

jest.setTimeout(20_000);

const KEY_PREFIX = 'test:rate-limits:';
const SCOPE_KEY = 'openai\u0000http://127.0.0.1:8000/v1\u0000-';

let server: TestRedisServer;
let inspector: Redis;
const opened: Redis[] = [];
const stores: RedisRateLimiterStore[] = [];

beforeAll(async () => {
  server = await startRedisServer();
  inspector = new Redis(server.url);
});

afterAll(async () => {
  await inspector.quit();
  await server.stop();
});

beforeEach(async () => {
  await inspector.flushall();
});

afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
  await Promise.all(opened.splice(0).map((connection) => connection.quit().catch(() => undefined)));
});

/** A fake clock shared by the stores of one test, and a count of the waits their limiters took. */
function testClock() {
  const clock = { time: 1_000_000, waits: 0 };
  return {
    clock,
    now: () => clock.time,
    sleep: (milliseconds: number, signal?: AbortSignal) => {
      clock.waits++;
      return sleep(Math.min(milliseconds, 2), signal);
    },
  };
}

/** A call that holds one of `limiter`'s slots until `gate` is resolved; resolves once it has started. */
async function startHolder(limiter: RateLimiter) {
  const gate = deferred();
  let started = false;
  const holder = limiter.run(async () => {
    started = true;
    await gate.promise;
  });
  await waitUntil(() => started, 'the holder started');
  return { gate, holder };
}

/** A call of `estimatedTokens` that the window has no room for: it waits through more asks, and starts once the minute has passed. */
async function expectToWaitForTheNextMinute(limiter: RateLimiter, clock: { time: number; waits: number }, estimatedTokens: number): Promise<void> {
  let started = false;
  const call = limiter.run(
    async () => {
      started = true;
    },
    { estimatedTokens },
  );
  await afterMoreAsks(clock, 3);
  expect(started).toBe(false);
  clock.time += 60_000;
  await call;
}

/** A store on a connection of its own, as another process would have. */
function storeOnOwnConnection(
  options: { now?: () => number; sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>; leaseMilliseconds?: number } = {},
) {
  const connection = new Redis(server.url);
  opened.push(connection);
  const store = createRedisRateLimiterStore({ connection, keyPrefix: KEY_PREFIX, pollIntervalMilliseconds: 2, ...options });
  stores.push(store);
  return { connection, store };
}

async function waitUntil(condition: () => boolean | Promise<boolean>, what: string): Promise<void> {
  for (let attempt = 0; attempt < 5_000; attempt++) {
    if (await condition()) return;
    await sleep(2);
  }
  throw new Error(`never happened: ${what}`);
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve = (): void => undefined;
  const promise = new Promise<void>((settle) => {
    resolve = settle;
  });
  return { promise, resolve };
}

const keys = rateLimitKeys(KEY_PREFIX, SCOPE_KEY);
const queueLength = () => inspector.zcard(keys.queue);

/** Waits until `limiter`'s process has asked Redis at least `count` more times, the call still waiting. */
async function afterMoreAsks(clock: { waits: number }, count: number): Promise<void> {
  const target = clock.waits + count;
  await waitUntil(() => clock.waits >= target, `${count} more asks`);
}

describe('the Redis rate limiter store', () => {
  it('shares concurrency between processes, serving waiting calls in arrival order across them', async () => {
    const first = storeOnOwnConnection().store.obtain(SCOPE_KEY, { maxConcurrency: 2 }).limiter;
    const second = storeOnOwnConnection().store.obtain(SCOPE_KEY, { maxConcurrency: 2 }).limiter;
    const gates = Array.from({ length: 6 }, deferred);
    const started: number[] = [];
    let active = 0;
    let peak = 0;
    const runs: Array<Promise<void>> = [];
    for (const [index, gate] of gates.entries()) {
      const limiter = index % 2 === 0 ? first : second;
      runs.push(
        limiter.run(async () => {
          active++;
          peak = Math.max(peak, active);
          started.push(index);
          await gate.promise;
          active--;
        }),
      );
      // Each call reaches Redis before the next one is made, so arrival order is the index order.
      if (index < 2) await waitUntil(() => started.length === index + 1, `call ${index} started`);
      else await waitUntil(async () => (await queueLength()) === index - 1, `call ${index} queued`);
    }
    expect(started).toEqual([0, 1]);
    gates[1]?.resolve();
    await waitUntil(() => started.length === 3, 'a third call started');
    gates[0]?.resolve();
    await waitUntil(() => started.length === 4, 'a fourth call started');
    gates[2]?.resolve();
    gates[3]?.resolve();
    await waitUntil(() => started.length === 6, 'all calls started');
    for (const gate of gates) gate.resolve();
    await Promise.all(runs);
    // Two slots came free at once: the last two may start in either order, as there was room for both.
    expect(started.slice(0, 4)).toEqual([0, 1, 2, 3]);
    expect(started.slice(4).sort()).toEqual([4, 5]);
    expect(peak).toBe(2);
    expect(await inspector.zcard(keys.active)).toBe(0);
  });

  it('shares the requests per rolling minute between processes', async () => {
    const { clock, now, sleep: countingSleep } = testClock();
    const first = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { requestsPerMinute: 3 }).limiter;
    const second = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { requestsPerMinute: 3 }).limiter;
    await first.run(async () => undefined);
    clock.time += 20_000;
    await second.run(async () => undefined);
    await first.run(async () => undefined);
    let fourthStarted = false;
    const fourth = second.run(async () => {
      fourthStarted = true;
    });
    await afterMoreAsks(clock, 3);
    expect(fourthStarted).toBe(false);
    expect(second.state()).toMatchObject({ queued: 1, requestsInWindow: 3 });
    // The first call leaves the window 60 s after it started.
    clock.time += 39_999;
    await afterMoreAsks(clock, 3);
    expect(fourthStarted).toBe(false);
    clock.time += 1;
    await fourth;
    expect(second.state()).toMatchObject({ queued: 0, active: 0, requestsInWindow: 3 });
  });

  it('shares the tokens per rolling minute between processes', async () => {
    const { clock, now, sleep: countingSleep } = testClock();
    const first = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { tokensPerMinute: 100 }).limiter;
    const second = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { tokensPerMinute: 100 }).limiter;
    await first.run(async () => undefined, { estimatedTokens: 60 });
    await second.run(async () => undefined, { estimatedTokens: 40 });
    expect(second.state().tokensInWindow).toBe(100);
    await expectToWaitForTheNextMinute(second, clock, 50);
    expect(second.state().tokensInWindow).toBe(50);
  });

  it('charges what a call settles instead of its estimate, for every process', async () => {
    const { clock, now, sleep: countingSleep } = testClock();
    const first = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { tokensPerMinute: 100 }).limiter;
    const second = storeOnOwnConnection({ now, sleep: countingSleep }).store.obtain(SCOPE_KEY, { tokensPerMinute: 100 }).limiter;
    await first.run(
      async (permit) => {
        permit.settle({ inputTokens: 6, outputTokens: 4 });
      },
      { estimatedTokens: 90 },
    );
    // 10 settled + 80 fit in 100 at once; 90 estimated would not have.
    await second.run(async () => undefined, { estimatedTokens: 80 });
    expect(second.state().tokensInWindow).toBe(90);
    await expectToWaitForTheNextMinute(first, clock, 30);
    expect(await inspector.hvals(keys.tokens)).toEqual(['30']);
    expect(Number(await inspector.get(keys.tokenTotal))).toBe(30);
  });

  it('frees the slot of a killed process once its lease runs out', async () => {
    const { clock, now, sleep: countingSleep } = testClock();
    const killed = storeOnOwnConnection({ now, sleep: countingSleep, leaseMilliseconds: 30_000 });
    const survivor = storeOnOwnConnection({ now, sleep: countingSleep, leaseMilliseconds: 30_000 }).store.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter;
    const hanging = deferred();
    let holderStarted = false;
    const holder = killed.store.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter.run(async () => {
      holderStarted = true;
      await hanging.promise;
    });
    await waitUntil(() => holderStarted, 'the holder started');
    // Its process dies: no renewal and no release reach Redis any more.
    killed.connection.disconnect();
    let survivorStarted = false;
    const waiting = survivor.run(async () => {
      survivorStarted = true;
    });
    await afterMoreAsks(clock, 3);
    clock.time += 29_999;
    await afterMoreAsks(clock, 3);
    expect(survivorStarted).toBe(false);
    clock.time += 1;
    await waiting;
    expect(survivorStarted).toBe(true);
    hanging.resolve();
    await holder;
  });

  it('keeps the slot of a live process past its lease, as the process renews it', async () => {
    const { clock, now, sleep: countingSleep } = testClock();
    // A 30 ms lease is renewed every 10 ms of real time; the fake clock moves only after a renewal.
    const holderStore = storeOnOwnConnection({ now, sleep: countingSleep, leaseMilliseconds: 30 }).store;
    const waiter = storeOnOwnConnection({ now, sleep: countingSleep, leaseMilliseconds: 30 }).store.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter;
    const gate = deferred();
    let holderStarted = false;
    const holder = holderStore.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter.run(async () => {
      holderStarted = true;
      await gate.promise;
    });
    await waitUntil(() => holderStarted, 'the holder started');
    let waiterStarted = false;
    const waiting = waiter.run(async () => {
      waiterStarted = true;
    });
    const leaseExpiry = async () => Number((await inspector.zrange(keys.active, 0, 0, 'WITHSCORES'))[1]);
    for (let step = 0; step < 10; step++) {
      clock.time += 20;
      await waitUntil(async () => (await leaseExpiry()) === clock.time + 30, 'the lease renewed');
    }
    expect(waiterStarted).toBe(false);
    gate.resolve();
    await holder;
    await waiting;
    expect(waiterStarted).toBe(true);
  });

  it('takes an aborted waiting call out of the queue, so it holds back no one', async () => {
    const first = storeOnOwnConnection().store.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter;
    const second = storeOnOwnConnection().store.obtain(SCOPE_KEY, { maxConcurrency: 1 }).limiter;
    const { gate, holder } = await startHolder(first);
    const controller = new AbortController();
    let abortedStarted = false;
    const aborted = second.run(
      async () => {
        abortedStarted = true;
      },
      { signal: controller.signal },
    );
    await waitUntil(async () => (await queueLength()) === 1, 'the call queued');
    const reason = new Error('stopped by the test');
    controller.abort(reason);
    await expect(aborted).rejects.toBe(reason);
    expect(abortedStarted).toBe(false);
    expect(await queueLength()).toBe(0);
    expect(second.state()).toMatchObject({ queued: 0, active: 0 });
    const next = second.run(async () => 'ran');
    gate.resolve();
    await holder;
    await expect(next).resolves.toBe('ran');
  });

  it('refuses a call whose limits differ from those another process set first, with the registry’s config error', async () => {
    const scope: RateLimitScope = { provider: 'openai', endpoint: 'http://127.0.0.1:8000/v1', backendId: 'openai' };
    const first = createRateLimiterRegistry(storeOnOwnConnection().store).limiterFor(scope, { maxConcurrency: 2 });
    await first.run(async () => undefined);
    const second = createRateLimiterRegistry(storeOnOwnConnection().store).limiterFor(scope, { maxConcurrency: 3, tokensPerMinute: 1000 });
    let failure: unknown;
    await second
      .run(async () => undefined)
      .catch((error: unknown) => {
        failure = error;
      });
    expect(SkillOptError.isInstance(failure) && failure.code).toBe('config-invalid');
    expect((failure as Error).message).toBe(
      'backends.openai: two models reach http://127.0.0.1:8000/v1 (openai) with the same credential, so they share one rate limit, but they were given different limits (max_concurrency 2; max_concurrency 3, tokens_per_minute 1000): set the limits once, at the top of the section',
    );
    await expect(first.run(async () => 'still runs')).resolves.toBe('still runs');
  });

  it('keeps no credential in any Redis key or value', async () => {
    const credential = 'sk-live-REDIS-LEAK-CHECK-0123456789';
    const scope: RateLimitScope = { provider: 'openai', endpoint: 'https://api.openai.com/v1', credential, backendId: 'openai' };
    const registries = [createRateLimiterRegistry(storeOnOwnConnection().store), createRateLimiterRegistry(storeOnOwnConnection().store)];
    const limiters: RateLimiter[] = registries.flatMap((registry) => [
      registry.limiterFor(scope, { maxConcurrency: 2, requestsPerMinute: 100, tokensPerMinute: 10_000 }),
      registry.limiterFor({ ...scope, endpoint: 'https://api.openai.com/v2' }, undefined, { limits: { maxConcurrency: 1, requestsPerMinute: 50 } }),
    ]);
    const gate = deferred();
    const runs = limiters.map((limiter) => limiter.run(async (permit) => gate.promise.then(() => permit.settle(7)), { estimatedTokens: 20 }));
    // Two calls in flight on the first endpoint, one on the second, one waiting behind it.
    const inFlight = async () => {
      let count = 0;
      for (const key of await inspector.keys(`${KEY_PREFIX}*:active`)) count += await inspector.zcard(key);
      return count;
    };
    await waitUntil(async () => (await inFlight()) === 3 && (await inspector.keys(`${KEY_PREFIX}*:queue`)).length === 1, 'calls reached Redis');
    const contents: string[] = [];
    for (const key of await inspector.keys('*')) {
      contents.push(key);
      const type = await inspector.type(key);
      if (type === 'string') contents.push(String(await inspector.get(key)));
      else if (type === 'zset') contents.push(...(await inspector.zrange(key, 0, -1, 'WITHSCORES')));
      else if (type === 'hash') contents.push(...Object.entries(await inspector.hgetall(key)).flat());
      else contents.push(`unexpected type ${type}`);
    }
    gate.resolve();
    await Promise.all(runs);
    expect(contents.length).toBeGreaterThan(0);
    expect(contents.filter((text) => text.includes(credential) || text.includes('REDIS-LEAK') || text.includes('api.openai.com'))).toEqual([]);
  });

  it('goes on after Redis restarts empty: calls in flight take their slots again, new calls are counted', async () => {
    const first = storeOnOwnConnection({ leaseMilliseconds: 300 }).store.obtain(SCOPE_KEY, { maxConcurrency: 1, requestsPerMinute: 10 }).limiter;
    const second = storeOnOwnConnection({ leaseMilliseconds: 300 }).store.obtain(SCOPE_KEY, { maxConcurrency: 1, requestsPerMinute: 10 }).limiter;
    const { gate, holder } = await startHolder(first);
    await server.kill();
    await server.start();
    // The holder's next renewal puts its slot back, so the other process's call waits for it.
    await waitUntil(async () => (await inspector.zcard(keys.active).catch(() => 0)) === 1, 'the slot taken again');
    let waiterStarted = false;
    const waiting = second.run(async () => {
      waiterStarted = true;
    });
    await waitUntil(async () => (await queueLength()) === 1, 'the call queued');
    expect(waiterStarted).toBe(false);
    gate.resolve();
    await holder;
    await waiting;
    expect(await inspector.zcard(keys.window)).toBe(1);
  });

  it('counts the calls of backends that use processRateLimiters once the store is installed', async () => {
    const { store } = storeOnOwnConnection();
    const restore = useRateLimiterStore(store);
    try {
      const scope: RateLimitScope = { provider: 'anthropic', endpoint: 'https://api.anthropic.com', credential: 'sk-ant-test', backendId: 'anthropic' };
      await processRateLimiters.limiterFor(scope, { requestsPerMinute: 50 }).run(async () => undefined);
    } finally {
      restore();
    }
    const windows = (await inspector.keys(`${KEY_PREFIX}*`)).filter((key) => key.endsWith(':window'));
    expect(windows).toHaveLength(1);
    expect(await inspector.zcard(windows[0] as string)).toBe(1);
  });
});

describe('shareRateLimitsThroughRedis', () => {
  it('makes processRateLimiters count in Redis until it is closed, then puts the process limiters back', async () => {
    const scope: RateLimitScope = { provider: 'openai', endpoint: 'http://127.0.0.1:9/v1', credential: 'sk-shared-test', backendId: 'openai' };
    const shared = shareRateLimitsThroughRedis({ url: server.url, keyPrefix: KEY_PREFIX });
    try {
      await processRateLimiters.limiterFor(scope, { requestsPerMinute: 40 }).run(async () => undefined);
    } finally {
      await shared.close();
    }
    const windows = (await inspector.keys(`${KEY_PREFIX}*`)).filter((key) => key.endsWith(':window'));
    expect(windows).toHaveLength(1);
    // Closed: the next limiter of another scope is this process's own again, and Redis sees nothing of it.
    await processRateLimiters.limiterFor({ ...scope, endpoint: 'http://127.0.0.1:10/v1' }, { requestsPerMinute: 40 }).run(async () => undefined);
    expect((await inspector.keys(`${KEY_PREFIX}*`)).filter((key) => key.endsWith(':window'))).toHaveLength(1);
  });
});
