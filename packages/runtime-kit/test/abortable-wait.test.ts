import { abortable, abortReason, sleep } from '../src/index';

describe('sleep', () => {
  it('resolves after the wait', async () => {
    const started = Date.now();
    await sleep(20);
    expect(Date.now() - started).toBeGreaterThanOrEqual(15);
  });

  it("rejects with the signal's reason at once when it aborts, and when it was aborted before", async () => {
    const controller = new AbortController();
    const reason = new Error('cancelled');
    const waiting = sleep(60_000, controller.signal);
    controller.abort(reason);
    await expect(waiting).rejects.toBe(reason);
    await expect(sleep(60_000, AbortSignal.abort(reason))).rejects.toBe(reason);
  });
});

describe('abortable', () => {
  it('settles like the promise while the signal stays quiet', async () => {
    await expect(abortable(Promise.resolve(7), new AbortController().signal)).resolves.toBe(7);
    await expect(abortable(Promise.reject(new Error('failed')), new AbortController().signal)).rejects.toThrow('failed');
    await expect(abortable(Promise.resolve('no signal'), undefined)).resolves.toBe('no signal');
  });

  it("rejects with the signal's reason as soon as it aborts, and keeps a late rejection quiet", async () => {
    const controller = new AbortController();
    let rejectLater: (error: Error) => void = () => undefined;
    const pending = new Promise<never>((_resolve, reject) => {
      rejectLater = reject;
    });
    const raced = abortable(pending, controller.signal);
    const reason = new Error('stopped');
    controller.abort(reason);
    await expect(raced).rejects.toBe(reason);
    // Nobody listens to the abandoned promise any more; this must not become an unhandled rejection.
    rejectLater(new Error('too late'));
    await new Promise((resolve) => setImmediate(resolve));
  });
});

describe('abortReason', () => {
  it("is the signal's own reason, or an AbortError when it has none", () => {
    const reason = new Error('why');
    expect(abortReason(AbortSignal.abort(reason))).toBe(reason);
    const fallback = abortReason({ reason: undefined } as AbortSignal);
    expect((fallback as DOMException).name).toBe('AbortError');
  });
});
