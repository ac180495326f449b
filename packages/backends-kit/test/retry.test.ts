import { ERROR_CODES, ProviderError, SkillOptError } from '@skillopt/contract';
import { backoffDelay, isRetryableError, providerErrorFromResponse, withRetry, type RetryOptions } from '../src/index';

/** Records every requested wait and returns at once, so no test waits in real time. */
function recordingSleep(): { sleeps: number[]; sleep: NonNullable<RetryOptions['sleep']> } {
  const sleeps: number[] = [];
  return { sleeps, sleep: async (milliseconds) => void sleeps.push(milliseconds) };
}

function failingThen<T>(failures: unknown[], success: T): { calls: () => number; operation: () => Promise<T> } {
  let calls = 0;
  return {
    calls: () => calls,
    operation: async () => {
      const failure = failures[calls++];
      if (failure !== undefined) throw failure;
      return success;
    },
  };
}

describe('withRetry', () => {
  it('waits exactly what a 429 retry-after asks, then succeeds', async () => {
    const { sleeps, sleep } = recordingSleep();
    const rateLimited = providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'Retry-After': '2' } });
    const { operation, calls } = failingThen([rateLimited], 'answer');
    const retries: [number, number, unknown][] = [];

    const result = await withRetry(operation, { sleep, random: () => 0.9, onRetry: (...call) => retries.push(call) });

    expect(result).toBe('answer');
    expect(calls()).toBe(2);
    expect(sleeps).toEqual([2000]);
    expect(retries).toEqual([[1, 2000, rateLimited]]);
  });

  it('retries a 500 after a jittered backoff and returns the later success', async () => {
    const { sleeps, sleep } = recordingSleep();
    const { operation, calls } = failingThen([providerErrorFromResponse({ provider: 'sim', status: 500 })], 42);

    await expect(withRetry(operation, { sleep, random: () => 0.5, baseDelayMs: 1000 })).resolves.toBe(42);
    expect(calls()).toBe(2);
    expect(sleeps).toEqual([500]);
  });

  it('fails at once on a 401, without a retry or a wait', async () => {
    const { sleeps, sleep } = recordingSleep();
    const unauthorised = providerErrorFromResponse({ provider: 'sim', status: 401, detail: 'Incorrect API key provided' });
    const { operation, calls } = failingThen([unauthorised], 'never');
    const onRetry = jest.fn();

    await expect(withRetry(operation, { sleep, onRetry, maxAttempts: 5 })).rejects.toBe(unauthorised);
    expect(unauthorised.code).toBe(ERROR_CODES.providerAuthentication);
    expect(calls()).toBe(1);
    expect(sleeps).toEqual([]);
    expect(onRetry).not.toHaveBeenCalled();
  });

  it.each([400, 403, 404, 422])('does not retry HTTP %i', async (status) => {
    const { sleeps, sleep } = recordingSleep();
    const { operation, calls } = failingThen([providerErrorFromResponse({ provider: 'sim', status })], 'never');
    await expect(withRetry(operation, { sleep })).rejects.toMatchObject({ status, retryable: false });
    expect(calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not sleep after the last attempt, and marks the last error with the attempts it took', async () => {
    const { sleeps, sleep } = recordingSleep();
    const errors = [1, 2, 3].map((attempt) => providerErrorFromResponse({ provider: 'sim', status: 503, detail: `failure ${attempt}` }));
    const { operation, calls } = failingThen(errors, 'never');

    const failure = await withRetry(operation, { sleep, maxAttempts: 3, random: () => 0 }).catch((error: unknown) => error);
    // The provider's own error, marked spent so that core does not run the rollout again.
    expect(failure).toMatchObject({
      name: 'ProviderError',
      code: errors[2]!.code,
      message: errors[2]!.message,
      status: 503,
      retryable: true,
      attempts: 3,
      cause: errors[2],
    });
    expect(calls()).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('leaves an error it did not retry unchanged', async () => {
    const { sleep } = recordingSleep();
    const unauthorized = providerErrorFromResponse({ provider: 'sim', status: 401 });
    const { operation } = failingThen([unauthorized], 'never');
    await expect(withRetry(operation, { sleep })).rejects.toBe(unauthorized);
  });

  it('passes the attempt number to the operation', async () => {
    const { sleep } = recordingSleep();
    const attempts: number[] = [];
    await withRetry(
      async (attempt) => {
        attempts.push(attempt);
        if (attempt < 3) throw providerErrorFromResponse({ provider: 'sim', status: 502 });
        return 'ok';
      },
      { sleep, maxAttempts: 3 },
    );
    expect(attempts).toEqual([1, 2, 3]);
  });

  it('stops waiting the moment the signal aborts during a backoff', async () => {
    const controller = new AbortController();
    const reason = new Error('run cancelled');
    let sleepStarted!: () => void;
    const sleeping = new Promise<void>((resolve) => (sleepStarted = resolve));
    // A sleep that never ends and ignores the signal: only withRetry's own abort handling can return.
    const neverEndingSleep = (): Promise<void> => {
      sleepStarted();
      return new Promise<void>(() => undefined);
    };
    const { operation, calls } = failingThen([providerErrorFromResponse({ provider: 'sim', status: 500 })], 'never');

    const outcome = withRetry(operation, { sleep: neverEndingSleep, signal: controller.signal });
    await sleeping;
    controller.abort(reason);

    await expect(outcome).rejects.toBe(reason);
    expect(calls()).toBe(1);
  });

  it('aborts during a real backoff timer without waiting it out', async () => {
    const controller = new AbortController();
    const { operation } = failingThen([providerErrorFromResponse({ provider: 'sim', status: 500 })], 'never');
    const outcome = withRetry(operation, {
      signal: controller.signal,
      random: () => 0.999,
      baseDelayMs: 600_000,
      maxDelayMs: 600_000,
      onRetry: () => queueMicrotask(() => controller.abort(new Error('stop'))),
    });
    await expect(outcome).rejects.toThrow('stop');
  });

  it('does not start when the signal is already aborted', async () => {
    const operation = jest.fn(async () => 'never');
    await expect(withRetry(operation, { signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(operation).not.toHaveBeenCalled();
  });

  it('reports the abort, not the failure it caused, when the caller aborts mid-call', async () => {
    const controller = new AbortController();
    const { sleeps, sleep } = recordingSleep();
    const reason = new Error('user pressed ctrl-c');
    const outcome = withRetry(
      async () => {
        controller.abort(reason);
        throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
      },
      { sleep, signal: controller.signal },
    );
    await expect(outcome).rejects.toBe(reason);
    expect(sleeps).toEqual([]);
  });

  it('caps a long retry-after at maxRetryAfterMs', async () => {
    const { sleeps, sleep } = recordingSleep();
    const slowDown = providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after': '3600' } });
    const { operation } = failingThen([slowDown], 'ok');
    await withRetry(operation, { sleep, maxRetryAfterMs: 10_000 });
    expect(sleeps).toEqual([10_000]);
  });

  it('does not count rate limits against maxAttempts: a burst of 429s among failures still ends in the answer', async () => {
    const { sleeps, sleep } = recordingSleep();
    const rateLimited = () => providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after-ms': '10' } });
    const failures = [rateLimited(), providerErrorFromResponse({ provider: 'sim', status: 500 }), rateLimited(), rateLimited(), rateLimited()];
    const { operation, calls } = failingThen(failures, 'answer');

    await expect(withRetry(operation, { sleep, maxAttempts: 2, random: () => 0.5 })).resolves.toBe('answer');
    expect(calls()).toBe(6);
    // The 500's backoff is that of a first failure (half of 500 ms): the 429 before it does not stretch it.
    expect(sleeps).toEqual([10, 250, 10, 10, 10]);
  });

  it('gives up on a rate limit once its waits would pass maxRateLimitWaitMs, marking the attempts made', async () => {
    const { sleeps, sleep } = recordingSleep();
    const { operation, calls } = failingThen(
      Array.from({ length: 10 }, () => providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after': '1' } })),
      'never',
    );

    const failure = await withRetry(operation, { sleep, maxAttempts: 2, maxRateLimitWaitMs: 3_500 }).catch((error: unknown) => error);
    expect(failure).toMatchObject({ code: ERROR_CODES.providerRateLimited, retryable: true, attempts: 4 });
    expect(calls()).toBe(4);
    expect(sleeps).toEqual([1000, 1000, 1000]);
  });

  it('counts each rate-limit wait as at least baseDelayMs, so retry-after: 0 cannot keep a call spinning', async () => {
    const { sleeps, sleep } = recordingSleep();
    const { operation, calls } = failingThen(
      Array.from({ length: 100 }, () => providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after': '0' } })),
      'never',
    );

    await expect(withRetry(operation, { sleep, baseDelayMs: 500, maxRateLimitWaitMs: 2_000 })).rejects.toMatchObject({ attempts: 5 });
    expect(calls()).toBe(5);
    expect(sleeps).toEqual([0, 0, 0, 0]);
  });

  it('retries nothing, a rate limit included, when maxAttempts is 1', async () => {
    const { sleeps, sleep } = recordingSleep();
    const rateLimited = providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after': '1' } });
    const { operation, calls } = failingThen([rateLimited], 'never');
    await expect(withRetry(operation, { sleep, maxAttempts: 1 })).rejects.toBe(rateLimited);
    expect(calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('does not retry a SkillOptError marked not retryable, whatever its status says', async () => {
    const { sleeps, sleep } = recordingSleep();
    const quotaGone = new ProviderError({ code: ERROR_CODES.providerRateLimited, provider: 'sim', status: 429, message: 'insufficient quota' });
    const { operation, calls } = failingThen([quotaGone], 'never');
    await expect(withRetry(operation, { sleep })).rejects.toBe(quotaGone);
    expect(calls()).toBe(1);
    expect(sleeps).toEqual([]);
  });

  it('retries plain network failures', async () => {
    const { sleeps, sleep } = recordingSleep();
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const hangUp = new Error('socket hang up');
    const { operation, calls } = failingThen([reset, hangUp], 'ok');
    await expect(withRetry(operation, { sleep, maxAttempts: 3 })).resolves.toBe('ok');
    expect(calls()).toBe(3);
    expect(sleeps).toHaveLength(2);
  });

  it('accepts a custom retry decision', async () => {
    const { sleep } = recordingSleep();
    const { operation, calls } = failingThen([new Error('flaky parser')], 'ok');
    await expect(withRetry(operation, { sleep, shouldRetry: (error) => (error as Error).message === 'flaky parser' })).resolves.toBe('ok');
    expect(calls()).toBe(2);
  });

  it('rejects a nonsensical attempt count as a config error', async () => {
    await expect(withRetry(async () => 1, { maxAttempts: 0 })).rejects.toMatchObject({ code: ERROR_CODES.configInvalid });
  });
});

describe('backoffDelay', () => {
  it('doubles its ceiling with each attempt up to maxDelayMs, drawing uniformly below it', () => {
    const almostOne = () => 0.999_999;
    const delays = [1, 2, 3, 4, 5, 6].map((attempt) => backoffDelay(attempt, { baseDelayMs: 100, maxDelayMs: 1000, random: almostOne }));
    expect(delays).toEqual([99, 199, 399, 799, 999, 999]);
    expect(backoffDelay(4, { baseDelayMs: 100, random: () => 0 })).toBe(0);
    expect(backoffDelay(2, { baseDelayMs: 100, random: () => 0.25 })).toBe(50);
  });
});

describe('isRetryableError', () => {
  it.each([
    ['HTTP 408', { status: 408 }, true],
    ['HTTP 409', { status: 409 }, true],
    ['HTTP 429', { status: 429 }, true],
    ['HTTP 500', { status: 500 }, true],
    ['HTTP 503 as statusCode', { statusCode: 503 }, true],
    ['HTTP 400', { status: 400 }, false],
    ['HTTP 401', { status: 401 }, false],
    ['HTTP 403', { status: 403 }, false],
    ['HTTP 404', { status: 404 }, false],
    ['HTTP 422', { status: 422 }, false],
    ['ECONNREFUSED', Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }), true],
    ['connection reset', new Error('Connection reset by peer'), true],
    ['ETIMEDOUT', Object.assign(new Error('x'), { code: 'ETIMEDOUT' }), true],
    ['fetch failed wrapping a socket error', new TypeError('fetch failed', { cause: Object.assign(new Error('other'), { code: 'UND_ERR_SOCKET' }) }), true],
    ['a TimeoutError', new DOMException('signal timed out', 'TimeoutError'), true],
    ['an AbortError', new DOMException('aborted', 'AbortError'), false],
    ['a programming error', new TypeError('cannot read properties of undefined'), false],
    ['a string', 'boom', false],
    ['a retryable SkillOptError', new SkillOptError({ code: 'x', category: 'internal', message: 'x', retryable: true }), true],
    ['a non-retryable SkillOptError', new SkillOptError({ code: 'x', category: 'internal', message: 'x' }), false],
  ])('%s → %s', (_label, error, expected) => {
    expect(isRetryableError(error)).toBe(expected);
  });
});
