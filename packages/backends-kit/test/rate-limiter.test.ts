import { ERROR_CODES } from '@skillopt/contract';
import { createRateLimiter } from '../src/index';

/**
 * A clock that only moves when the limiter sleeps: each sleep moves it to the moment that sleep
 * was meant to end. Start times read from it are exact, and no test waits in real time.
 */
function fakeClock() {
  let time = 0;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => time,
    sleep: (milliseconds: number): Promise<void> => {
      sleeps.push(milliseconds);
      const target = time + milliseconds;
      return Promise.resolve().then(() => {
        time = Math.max(time, target);
      });
    },
  };
}

function deferred(): { promise: Promise<void>; resolve: () => void } {
  let resolve!: () => void;
  const promise = new Promise<void>((done) => (resolve = done));
  return { promise, resolve };
}

/** Lets every queued promise callback run. */
const settleMicrotasks = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createRateLimiter', () => {
  it('never runs more than maxConcurrency tasks at once, and starts them in arrival order', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 2 });
    const gates = Array.from({ length: 6 }, deferred);
    let running = 0;
    let mostRunning = 0;
    const started: number[] = [];

    const results = gates.map((gate, index) =>
      limiter.run(async () => {
        started.push(index);
        running++;
        mostRunning = Math.max(mostRunning, running);
        await gate.promise;
        running--;
        return index;
      }),
    );

    await settleMicrotasks();
    expect(started).toEqual([0, 1]);
    expect(limiter.state()).toMatchObject({ active: 2, queued: 4 });

    // Finish them out of order; each finish lets exactly the next waiting task in.
    for (const index of [1, 0, 3, 2, 5, 4]) {
      gates[index]?.resolve();
      await settleMicrotasks();
      expect(running).toBeLessThanOrEqual(2);
    }

    await expect(Promise.all(results)).resolves.toEqual([0, 1, 2, 3, 4, 5]);
    expect(mostRunning).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5]);
    expect(limiter.state()).toMatchObject({ active: 0, queued: 0 });
  });

  it('starts at most requestsPerMinute tasks in any rolling minute', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, requestsPerMinute: 2, now: clock.now, sleep: clock.sleep });
    const startTimes = await Promise.all(Array.from({ length: 5 }, () => limiter.run(async () => clock.now())));
    expect(startTimes).toEqual([0, 0, 60_000, 60_000, 120_000]);
  });

  it('keeps estimated tokens within tokensPerMinute', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const startTimes = await Promise.all(Array.from({ length: 3 }, () => limiter.run(async () => clock.now(), { estimatedTokens: 600 })));
    expect(startTimes).toEqual([0, 60_000, 120_000]);
  });

  it('lets a settled, smaller actual usage free budget for the next task', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const first = limiter.run(
      async (permit) => {
        permit.settle({ inputTokens: 60, outputTokens: 40 });
        return clock.now();
      },
      { estimatedTokens: 600 },
    );
    const second = limiter.run(async () => clock.now(), { estimatedTokens: 600 });
    await expect(Promise.all([first, second])).resolves.toEqual([0, 0]);
    expect(limiter.state().tokensInWindow).toBe(700);
  });

  it('charges a larger actual usage, delaying later tasks', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 1, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const first = limiter.run(
      async (permit) => {
        permit.settle(950);
        return clock.now();
      },
      { estimatedTokens: 100 },
    );
    const second = limiter.run(async () => clock.now(), { estimatedTokens: 100 });
    await expect(Promise.all([first, second])).resolves.toEqual([0, 60_000]);
  });

  it('is first-in, first-out: a small task does not overtake a large one waiting for budget', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const order: string[] = [];
    const task = (name: string) => async () => {
      order.push(name);
      return clock.now();
    };
    const times = await Promise.all([
      limiter.run(task('medium'), { estimatedTokens: 500 }),
      limiter.run(task('large'), { estimatedTokens: 900 }),
      limiter.run(task('small'), { estimatedTokens: 100 }),
    ]);
    expect(order).toEqual(['medium', 'large', 'small']);
    expect(times).toEqual([0, 60_000, 60_000]);
  });

  it('runs a request larger than the whole token budget alone, once the window is empty', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const times = await Promise.all([
      limiter.run(async () => clock.now(), { estimatedTokens: 10 }),
      limiter.run(async () => clock.now(), { estimatedTokens: 5000 }),
    ]);
    expect(times).toEqual([0, 60_000]);
  });

  it('respects both budgets together', async () => {
    const clock = fakeClock();
    const limiter = createRateLimiter({ maxConcurrency: 10, requestsPerMinute: 3, tokensPerMinute: 1000, now: clock.now, sleep: clock.sleep });
    const tokens = [100, 100, 100, 100, 950];
    const times = await Promise.all(tokens.map((estimatedTokens) => limiter.run(async () => clock.now(), { estimatedTokens })));
    // Three requests fill the request budget; the fourth waits a minute; the fifth needs the
    // fourth's 100 tokens to leave the window as well.
    expect(times).toEqual([0, 0, 0, 60_000, 120_000]);
  });

  it('removes a queued task when its signal aborts, rejecting with the reason, and moves on', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 1 });
    const gate = deferred();
    const started: string[] = [];
    const first = limiter.run(async () => {
      started.push('first');
      await gate.promise;
    });
    const controller = new AbortController();
    const second = limiter.run(async () => void started.push('second'), { signal: controller.signal });
    const third = limiter.run(async () => void started.push('third'));

    const reason = new Error('cancelled while queued');
    controller.abort(reason);
    await expect(second).rejects.toBe(reason);
    expect(limiter.state().queued).toBe(1);

    gate.resolve();
    await Promise.all([first, third]);
    expect(started).toEqual(['first', 'third']);
  });

  it('lets the tasks behind an aborted head start when they fit', async () => {
    const clock = fakeClock();
    // This clock never advances on its own, so the head would wait forever without the abort.
    const frozen = { now: clock.now, sleep: () => new Promise<void>(() => undefined) };
    const limiter = createRateLimiter({ maxConcurrency: 10, tokensPerMinute: 1000, ...frozen });
    await limiter.run(async () => undefined, { estimatedTokens: 500 });
    const controller = new AbortController();
    const large = limiter.run(async () => 'large', { estimatedTokens: 900, signal: controller.signal });
    const small = limiter.run(async () => 'small', { estimatedTokens: 100 });
    await settleMicrotasks();
    expect(limiter.state().queued).toBe(2);

    controller.abort(new Error('too slow'));
    await expect(large).rejects.toThrow('too slow');
    await expect(small).resolves.toBe('small');
  });

  it('rejects at once for an already aborted signal', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 1 });
    const task = jest.fn(async () => 1);
    await expect(limiter.run(task, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(task).not.toHaveBeenCalled();
  });

  it('frees the slot of a task that fails, and passes its error on', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 1 });
    const failure = new Error('provider down');
    await expect(limiter.run(async () => Promise.reject(failure))).rejects.toBe(failure);
    await expect(
      limiter.run(() => {
        throw failure;
      }),
    ).rejects.toBe(failure);
    await expect(limiter.run(async () => 'next')).resolves.toBe('next');
  });

  it('refuses nonsensical limits with a config error', () => {
    expect(() => createRateLimiter({ maxConcurrency: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid }));
    expect(() => createRateLimiter({ maxConcurrency: 1, requestsPerMinute: -1 })).toThrow(/requestsPerMinute/);
    expect(() => createRateLimiter({ maxConcurrency: 1.5 })).toThrow(/maxConcurrency/);
  });

  it('works with the real clock and leaves no timer behind', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 2, requestsPerMinute: 100, tokensPerMinute: 100_000 });
    const results = await Promise.all([1, 2, 3].map((value) => limiter.run(async () => value, { estimatedTokens: 10 })));
    expect(results).toEqual([1, 2, 3]);
  });
});
