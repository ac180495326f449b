import { mapConcurrent } from '../src/index';

interface Deferred<T> {
  promise: Promise<T>;
  resolve(value: T): void;
  reject(error: unknown): void;
}

function defer<T>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  let reject: (error: unknown) => void = () => undefined;
  const promise = new Promise<T>((resolvePromise, rejectPromise) => {
    resolve = resolvePromise;
    reject = rejectPromise;
  });
  return { promise, resolve, reject };
}

/** Lets every pending promise callback run. */
async function flush(): Promise<void> {
  for (let round = 0; round < 10; round += 1) await Promise.resolve();
}

/** A mapper whose calls finish only when the test says so, recording which calls started. */
function controlledMapper() {
  const calls = new Map<number, Deferred<string>>();
  const started: number[] = [];
  const signals: AbortSignal[] = [];
  const mapper = (item: string, index: number, signal: AbortSignal): Promise<string> => {
    started.push(index);
    signals.push(signal);
    const deferred = defer<string>();
    calls.set(index, deferred);
    return deferred.promise.then((suffix) => `${item}${suffix}`);
  };
  const call = (index: number): Deferred<string> => {
    const deferred = calls.get(index);
    if (deferred === undefined) throw new Error(`call ${index} has not started`);
    return deferred;
  };
  return { mapper, started, signals, call };
}

describe('mapConcurrent', () => {
  it('keeps input order whatever the completion order', async () => {
    const control = controlledMapper();
    const result = mapConcurrent(['a', 'b', 'c'], 3, control.mapper);
    await flush();
    control.call(2).resolve('!');
    control.call(0).resolve('!');
    control.call(1).resolve('!');
    await expect(result).resolves.toEqual(['a!', 'b!', 'c!']);
  });

  it('never has more than `limit` calls in flight', async () => {
    const control = controlledMapper();
    const result = mapConcurrent(['a', 'b', 'c', 'd', 'e'], 2, control.mapper);
    await flush();
    expect(control.started).toEqual([0, 1]);
    control.call(1).resolve('');
    await flush();
    expect(control.started).toEqual([0, 1, 2]);
    control.call(0).resolve('');
    await flush();
    expect(control.started).toEqual([0, 1, 2, 3]);
    control.call(2).resolve('');
    control.call(3).resolve('');
    await flush();
    control.call(4).resolve('');
    await expect(result).resolves.toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('stops scheduling after the first rejection and rejects once in-flight calls settle', async () => {
    const control = controlledMapper();
    let settled = false;
    const result = mapConcurrent(['a', 'b', 'c', 'd'], 2, control.mapper).finally(() => {
      settled = true;
    });
    result.catch(() => undefined);
    await flush();
    const first = new Error('first');
    control.call(0).reject(first);
    await flush();
    expect(control.started).toEqual([0, 1]);
    expect(settled).toBe(false);
    expect(control.signals[1]?.aborted).toBe(true);
    control.call(1).reject(new Error('second'));
    await expect(result).rejects.toBe(first);
    expect(control.started).toEqual([0, 1]);
  });

  it('turns a synchronous throw into a rejection', async () => {
    const error = new Error('sync');
    await expect(
      mapConcurrent([1, 2], 1, () => {
        throw error;
      }),
    ).rejects.toBe(error);
  });

  it('stops scheduling on abort and rejects with the reason after in-flight calls settle', async () => {
    const control = controlledMapper();
    const controller = new AbortController();
    let settled = false;
    const result = mapConcurrent(['a', 'b', 'c'], 1, control.mapper, { signal: controller.signal }).finally(() => {
      settled = true;
    });
    result.catch(() => undefined);
    await flush();
    const reason = new Error('stop');
    controller.abort(reason);
    await flush();
    expect(control.signals[0]?.aborted).toBe(true);
    expect(settled).toBe(false);
    control.call(0).reject(new Error('aborted call'));
    await expect(result).rejects.toBe(reason);
    expect(control.started).toEqual([0]);
  });

  it('rejects at once without calling the mapper when already aborted', async () => {
    const controller = new AbortController();
    controller.abort(new Error('already'));
    const mapper = jest.fn(async () => 1);
    await expect(mapConcurrent([1, 2], 2, mapper, { signal: controller.signal })).rejects.toThrow('already');
    expect(mapper).not.toHaveBeenCalled();
  });

  it('handles empty input, Infinity and indexes', async () => {
    await expect(mapConcurrent([], 2, async () => 1)).resolves.toEqual([]);
    await expect(mapConcurrent(['x', 'y'], Number.POSITIVE_INFINITY, async (item, index) => `${item}${index}`)).resolves.toEqual(['x0', 'y1']);
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects the limit %d', async (limit) => {
    await expect(mapConcurrent([1], limit, async () => 1)).rejects.toThrow(RangeError);
  });

  it('lets every call in flight listen to the shared signal without a listener-leak warning', async () => {
    // Node warns once an EventTarget has more listeners than its limit (10 by default); with 20
    // calls in flight, 20 listeners on the shared signal are normal use. Node keeps the limit under
    // a symbol (events.getMaxListeners cannot be used here: Jest's AbortSignal is of another realm).
    const limitOf = (signal: AbortSignal) => {
      const symbol = Object.getOwnPropertySymbols(signal).find((candidate) => candidate.description === 'events.maxEventTargetListeners');
      return symbol === undefined ? undefined : (signal as unknown as Record<symbol, unknown>)[symbol];
    };
    const limits = await mapConcurrent([1, 2, 3], 20, async (_item, _index, signal) => limitOf(signal));
    expect(limits).toEqual([0, 0, 0]);
  });
});
