import { forkLatencySlots, latencySlotRecorder, measureLatencySlots, type LatencySlotTally } from '../src/index';

const call = async () => {
  const record = latencySlotRecorder();
  await new Promise((resolve) => setImmediate(resolve));
  record();
};

/** `count` branches of `callsEach` sequential calls, at most `capacity` in flight. */
async function fork(capacity: number, count: number, callsEach: number) {
  const branches = forkLatencySlots(capacity);
  await Promise.all(
    Array.from({ length: count }, () =>
      branches.branch(async () => {
        for (let index = 0; index < callsEach; index += 1) await call();
      }),
    ),
  );
  branches.join();
}

describe('latency slots', () => {
  it('add up for calls one after another, and count nothing outside a measurement', async () => {
    const tally: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(tally, async () => {
      await call();
      await call();
    });
    await call();
    expect(tally).toEqual({ slots: 2, calls: 2 });
  });

  it('take the longest branch of a fork, or its calls over its capacity, whichever is more', async () => {
    const wide: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(wide, () => fork(4, 10, 1));
    expect(wide).toEqual({ slots: 3, calls: 10 });

    const deep: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(deep, () => fork(64, 3, 5));
    expect(deep).toEqual({ slots: 5, calls: 15 });

    const unbounded: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(unbounded, () => fork(Number.POSITIVE_INFINITY, 100, 1));
    expect(unbounded.slots).toBe(1);
  });

  it('compose: a call, then a fork whose branches fork again, then a call', async () => {
    const tally: LatencySlotTally = { slots: 0, calls: 0 };
    await measureLatencySlots(tally, async () => {
      await call();
      const outer = forkLatencySlots(Number.POSITIVE_INFINITY);
      // Two branches side by side: one forks 8 single calls at capacity 2 (4 slots), the other makes 2 calls.
      await Promise.all([
        outer.branch(() => fork(2, 8, 1)),
        outer.branch(async () => {
          await call();
          await call();
        }),
      ]);
      outer.join();
      await call();
    });
    expect(tally).toEqual({ slots: 1 + 4 + 1, calls: 12 });
  });

  it('count a call where it was asked for, even when another chain starts it later', async () => {
    const first: LatencySlotTally = { slots: 0, calls: 0 };
    const second: LatencySlotTally = { slots: 0, calls: 0 };
    const queued = measureLatencySlots(second, () => latencySlotRecorder());
    // The first chain's continuation runs the second chain's queued call, as a limiter does.
    await measureLatencySlots(first, async () => {
      await call();
      queued();
    });
    expect(first).toEqual({ slots: 1, calls: 1 });
    expect(second).toEqual({ slots: 1, calls: 1 });
  });
});
