import { abortReason } from '@skillopt/runtime-kit';

/**
 * At most `size` calls in flight at once, the rest waiting their turn in order: the env's
 * `max_api_workers`, across every game being played. A waiting call whose signal aborts leaves the
 * queue without running.
 */
export class CallSlots {
  private inFlight = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(private readonly size: number) {}

  async run<Value>(call: () => Promise<Value>, signal: AbortSignal): Promise<Value> {
    if (this.inFlight >= this.size) {
      await new Promise<void>((resolve, reject) => {
        const turn = (): void => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        };
        const onAbort = (): void => {
          const at = this.waiting.indexOf(turn);
          if (at >= 0) this.waiting.splice(at, 1);
          reject(abortReason(signal));
        };
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(turn);
      });
    } else {
      this.inFlight += 1;
    }
    try {
      signal.throwIfAborted();
      return await call();
    } finally {
      const next = this.waiting.shift();
      // The slot passes straight to the next waiting call; only with nobody waiting is it freed.
      if (next === undefined) this.inFlight -= 1;
      else next();
    }
  }
}
