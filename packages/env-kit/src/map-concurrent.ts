import { setMaxListeners } from 'node:events';
import { forkLatencySlots } from '@skillopt/runtime-kit';

export interface MapConcurrentOptions {
  /** Aborting stops scheduling; the returned promise rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
}

/**
 * Runs `mapper` over `items` with at most `limit` calls in flight and resolves with the results in
 * input order, whatever order they complete in.
 *
 * - Failure: after the first rejection no further item is started; the calls already in flight are
 *   left to settle (so none is still writing files when the caller moves on), then the promise
 *   rejects with that first error. Later errors are dropped.
 * - Abort: when `options.signal` aborts, no further item is started; once the calls in flight have
 *   settled the promise rejects with `signal.reason`. An already-aborted signal rejects without
 *   calling `mapper` at all.
 * - Each call gets a signal that aborts when `options.signal` aborts or another call has failed,
 *   so a mapper that honours it stops early; a mapper that ignores it simply runs to completion.
 *
 * `limit` is a positive integer or `Infinity` (everything at once). Each call is a branch of the
 * caller's latency-slot chain (runtime-kit's `forkLatencySlots`), so a measured run counts the map
 * as its longest call or its calls over `limit`, whichever is more.
 */
export function mapConcurrent<Item, Result>(
  items: readonly Item[],
  limit: number,
  mapper: (item: Item, index: number, signal: AbortSignal) => Promise<Result> | Result,
  options: MapConcurrentOptions = {},
): Promise<Result[]> {
  if (!(limit === Number.POSITIVE_INFINITY || (Number.isInteger(limit) && limit >= 1))) {
    return Promise.reject(new RangeError(`the concurrency limit must be a positive integer or Infinity, got ${limit}`));
  }
  const outerSignal = options.signal;
  if (outerSignal?.aborted) return Promise.reject(outerSignal.reason);
  if (items.length === 0) return Promise.resolve([]);

  return new Promise<Result[]>((resolve, reject) => {
    const results = new Array<Result>(items.length);
    const innerController = new AbortController();
    // Every call in flight may listen to the shared signal (its HTTP request, its waits), so up to
    // `limit` listeners is normal use, not the leak Node's default limit of 10 warns about.
    setMaxListeners(0, innerController.signal);
    // The first thing that went wrong decides the outcome: an abort that came first wins over the
    // abort errors it causes in the mappers, and the first mapper error wins over later ones.
    let stopReason: { kind: 'failed'; error: unknown } | { kind: 'aborted'; reason: unknown } | undefined;
    let nextIndex = 0;
    let inFlight = 0;
    const branches = forkLatencySlots(limit);

    const onOuterAbort = (): void => {
      if (stopReason === undefined) stopReason = { kind: 'aborted', reason: outerSignal?.reason };
      innerController.abort(outerSignal?.reason);
      finishIfDone();
    };

    function finishIfDone(): void {
      if (inFlight > 0) return;
      if (stopReason === undefined && nextIndex < items.length) return;
      outerSignal?.removeEventListener('abort', onOuterAbort);
      branches.join();
      if (stopReason === undefined) resolve(results);
      else reject(stopReason.kind === 'failed' ? stopReason.error : stopReason.reason);
    }

    function startMore(): void {
      while (stopReason === undefined && inFlight < limit && nextIndex < items.length) {
        const index = nextIndex;
        nextIndex += 1;
        inFlight += 1;
        // `new Promise` turns a mapper that throws synchronously into a rejection like any other.
        new Promise<Result>((resolveCall) => resolveCall(branches.branch(() => mapper(items[index] as Item, index, innerController.signal))))
          .then(
            (result) => {
              results[index] = result;
            },
            (error: unknown) => {
              if (stopReason === undefined) {
                stopReason = { kind: 'failed', error };
                innerController.abort(error);
              }
            },
          )
          .finally(() => {
            inFlight -= 1;
            startMore();
            finishIfDone();
          });
      }
    }

    outerSignal?.addEventListener('abort', onOuterAbort, { once: true });
    startMore();
  });
}
