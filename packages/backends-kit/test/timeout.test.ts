import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { withTimeout } from '../src/index';

/** An operation that only ends when its signal aborts, as a well-behaved fetch does. */
function untilAborted(seen: { signal?: AbortSignal }) {
  return (signal: AbortSignal) => {
    seen.signal = signal;
    return new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  };
}

describe('withTimeout', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('rejects with a retryable provider-timeout error and aborts the operation when time runs out', async () => {
    const seen: { signal?: AbortSignal } = {};
    const outcome = withTimeout(untilAborted(seen), { timeoutMs: 5000, provider: 'sim', operationName: 'chat completion' });
    jest.advanceTimersByTime(4999);
    expect(seen.signal?.aborted).toBe(false);
    jest.advanceTimersByTime(1);

    const error = await outcome.catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true, provider: 'sim' });
    expect((error as Error).message).toBe('chat completion to sim took longer than 5000 ms');
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.signal?.reason).toBe(error);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('settles at the timeout even when the operation ignores its signal', async () => {
    const outcome = withTimeout(() => new Promise<never>(() => undefined), { timeoutMs: 100 });
    jest.advanceTimersByTime(100);
    await expect(outcome).rejects.toMatchObject({ code: ERROR_CODES.providerTimeout });
  });

  it('returns the result and clears its timer when the operation is quick', async () => {
    await expect(withTimeout(async () => 'fast', { timeoutMs: 5000 })).resolves.toBe('fast');
    expect(jest.getTimerCount()).toBe(0);
  });

  it('passes the operation’s own failure through and clears its timer', async () => {
    const failure = new Error('bad request');
    await expect(withTimeout(async () => Promise.reject(failure), { timeoutMs: 5000 })).rejects.toBe(failure);
    await expect(
      withTimeout(
        () => {
          throw failure;
        },
        { timeoutMs: 5000 },
      ),
    ).rejects.toBe(failure);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('rejects with the parent’s reason when the parent aborts first, and aborts the operation with it', async () => {
    const parent = new AbortController();
    const seen: { signal?: AbortSignal } = {};
    const outcome = withTimeout(untilAborted(seen), { timeoutMs: 5000, signal: parent.signal });
    const reason = new Error('run cancelled');
    parent.abort(reason);

    await expect(outcome).rejects.toBe(reason);
    expect(seen.signal?.reason).toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('does not start when the parent is already aborted', async () => {
    const operation = jest.fn(async () => 'never');
    await expect(withTimeout(operation, { timeoutMs: 5000, signal: AbortSignal.abort(new Error('gone')) })).rejects.toThrow('gone');
    expect(operation).not.toHaveBeenCalled();
  });

  it('refuses a timeout that is not positive', () => {
    expect(() => withTimeout(async () => 1, { timeoutMs: 0 })).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid }));
  });
});
