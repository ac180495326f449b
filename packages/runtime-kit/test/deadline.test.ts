import { createDeadline, withDeadline } from '../src/index';

/** An operation that only ends when its signal aborts, as a well-behaved fetch does. */
function untilAborted(seen: { signal?: AbortSignal }) {
  return (signal: AbortSignal) => {
    seen.signal = signal;
    return new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason)));
  };
}

const tooSlow = new Error('the probe took too long');

describe('withDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('rejects with the timeout reason and aborts the operation with it when time runs out', async () => {
    const seen: { signal?: AbortSignal } = {};
    const outcome = withDeadline(untilAborted(seen), { timeoutMs: 5000, timeoutReason: () => tooSlow });
    jest.advanceTimersByTime(4999);
    expect(seen.signal?.aborted).toBe(false);
    jest.advanceTimersByTime(1);
    await expect(outcome).rejects.toBe(tooSlow);
    expect(seen.signal?.reason).toBe(tooSlow);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('settles at the timeout even when the operation ignores its signal', async () => {
    const outcome = withDeadline(() => new Promise<never>(() => undefined), { timeoutMs: 100, timeoutReason: () => tooSlow });
    jest.advanceTimersByTime(100);
    await expect(outcome).rejects.toBe(tooSlow);
  });

  it('returns the result and clears its timer when the operation is quick', async () => {
    await expect(withDeadline(async () => 'fast', { timeoutMs: 5000, timeoutReason: () => tooSlow })).resolves.toBe('fast');
    expect(jest.getTimerCount()).toBe(0);
  });

  it("passes the operation's own failure through, thrown or rejected", async () => {
    const failure = new Error('bad request');
    await expect(withDeadline(async () => Promise.reject(failure), { timeoutMs: 5000, timeoutReason: () => tooSlow })).rejects.toBe(failure);
    const throwing = (): Promise<never> => {
      throw failure;
    };
    await expect(withDeadline(throwing, { timeoutMs: 5000, timeoutReason: () => tooSlow })).rejects.toBe(failure);
    expect(jest.getTimerCount()).toBe(0);
  });

  it("rejects with the caller's reason when the caller aborts first, and aborts the operation with it", async () => {
    const caller = new AbortController();
    const seen: { signal?: AbortSignal } = {};
    const outcome = withDeadline(untilAborted(seen), { timeoutMs: 5000, signal: caller.signal, timeoutReason: () => tooSlow });
    const reason = new Error('run cancelled');
    caller.abort(reason);
    await expect(outcome).rejects.toBe(reason);
    expect(seen.signal?.reason).toBe(reason);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('without a timeout only races the caller’s signal', async () => {
    const caller = new AbortController();
    const outcome = withDeadline(() => new Promise<never>(() => undefined), { signal: caller.signal, timeoutReason: () => tooSlow });
    expect(jest.getTimerCount()).toBe(0);
    caller.abort(new Error('stopped'));
    await expect(outcome).rejects.toThrow('stopped');
  });

  it('does not start when the caller is already aborted', async () => {
    const operation = jest.fn(async () => 'never');
    await expect(withDeadline(operation, { timeoutMs: 5000, signal: AbortSignal.abort(new Error('gone')), timeoutReason: () => tooSlow })).rejects.toThrow(
      'gone',
    );
    expect(operation).not.toHaveBeenCalled();
  });

  it('refuses a timeout that is not positive', async () => {
    await expect(withDeadline(async () => 1, { timeoutMs: 0, timeoutReason: () => tooSlow })).rejects.toMatchObject({ code: 'config-invalid' });
  });
});

describe('createDeadline', () => {
  beforeEach(() => jest.useFakeTimers());
  afterEach(() => jest.useRealTimers());

  it('gives several steps one signal that aborts when the whole budget is spent', () => {
    const deadline = createDeadline({ timeoutMs: 1000, timeoutReason: () => tooSlow });
    jest.advanceTimersByTime(600);
    expect(deadline.signal.aborted).toBe(false);
    jest.advanceTimersByTime(400);
    expect(deadline.signal.reason).toBe(tooSlow);
    deadline.dispose();
  });

  it("aborts with the caller's reason, also when the caller was aborted before", () => {
    const early = createDeadline({ timeoutMs: 1000, signal: AbortSignal.abort(new Error('before')), timeoutReason: () => tooSlow });
    expect((early.signal.reason as Error).message).toBe('before');
    expect(jest.getTimerCount()).toBe(0);

    const caller = new AbortController();
    const later = createDeadline({ timeoutMs: 1000, signal: caller.signal, timeoutReason: () => tooSlow });
    caller.abort(new Error('after'));
    expect((later.signal.reason as Error).message).toBe('after');
    later.dispose();
  });

  it('stops listening and clears its timer on dispose', () => {
    const caller = new AbortController();
    const deadline = createDeadline({ timeoutMs: 1000, signal: caller.signal, timeoutReason: () => tooSlow });
    deadline.dispose();
    expect(jest.getTimerCount()).toBe(0);
    caller.abort(new Error('after dispose'));
    expect(deadline.signal.aborted).toBe(false);
  });
});
