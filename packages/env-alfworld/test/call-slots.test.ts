import { CallSlots } from '../src/call-slots';

describe('CallSlots (env.max_api_workers)', () => {
  it('never has more calls in flight than its size, and runs the waiting ones in order', async () => {
    const slots = new CallSlots(2);
    const signal = new AbortController().signal;
    let inFlight = 0;
    let most = 0;
    const order: number[] = [];
    const releases: Array<() => void> = [];
    const calls = [0, 1, 2, 3, 4].map((index) =>
      slots.run(async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        order.push(index);
        await new Promise<void>((resolve) => releases.push(resolve));
        inFlight -= 1;
        return index;
      }, signal),
    );
    for (let released = 0; released < 5; released += 1) {
      while (releases.length === 0) await new Promise((resolve) => setImmediate(resolve));
      (releases.shift() as () => void)();
    }
    expect(await Promise.all(calls)).toEqual([0, 1, 2, 3, 4]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4]);
  });

  it('drops a waiting call whose signal aborts, without running it', async () => {
    const slots = new CallSlots(1);
    let release: () => void = () => undefined;
    const running = slots.run(() => new Promise<void>((resolve) => (release = resolve)), new AbortController().signal);
    const controller = new AbortController();
    let ran = false;
    const waiting = slots.run(async () => {
      ran = true;
    }, controller.signal);
    controller.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    release();
    await running;
    expect(ran).toBe(false);
  });
});
