import { abortReason } from '@skillopt/runtime-kit';
import { BridgeProcess, type BridgeProcessOptions } from './bridge-process.js';

/**
 * At most `size` bridge processes, each playing one game at a time and reused for the next: the
 * import of ALFWorld and TextWorld is the slow part, and a bridge loads every game afresh. A
 * bridge that failed is dropped (stopped) and a new one started when needed. The env's setup
 * makes the pool and its teardown closes it; nothing outlives the run.
 */
export class BridgePool {
  private readonly idle: BridgeProcess[] = [];
  private readonly all = new Set<BridgeProcess>();
  private readonly waiting: Array<() => void> = [];
  private starting = 0;
  private closed = false;

  constructor(
    private readonly options: BridgeProcessOptions,
    private readonly size: number,
  ) {}

  /** Adds a bridge started elsewhere (setup's first one, which proved the install) as idle. */
  adopt(bridge: BridgeProcess): void {
    this.all.add(bridge);
    this.idle.push(bridge);
  }

  /** A usable bridge for one game: an idle one, a new one while there is room, else the next one released. */
  async acquire(signal: AbortSignal): Promise<BridgeProcess> {
    for (;;) {
      signal.throwIfAborted();
      if (this.closed) throw new Error('the ALFWorld bridges are closed: the env was torn down');
      const idle = this.idle.pop();
      if (idle !== undefined) {
        if (idle.usable) return idle;
        this.drop(idle);
        continue;
      }
      if (this.all.size + this.starting < this.size) {
        this.starting += 1;
        try {
          const { bridge } = await BridgeProcess.start(this.options);
          this.all.add(bridge);
          return bridge;
        } finally {
          this.starting -= 1;
        }
      }
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => reject(abortReason(signal));
        signal.addEventListener('abort', onAbort, { once: true });
        this.waiting.push(() => {
          signal.removeEventListener('abort', onAbort);
          resolve();
        });
      });
    }
  }

  /** Gives a bridge back after a game; one that failed is stopped and its place freed. */
  release(bridge: BridgeProcess): void {
    if (bridge.usable && !this.closed) this.idle.push(bridge);
    else this.drop(bridge);
    this.waiting.shift()?.();
  }

  /** How many bridge processes are alive. */
  get liveCount(): number {
    return this.all.size;
  }

  /** Closes every bridge; later acquisitions fail. */
  async close(): Promise<void> {
    this.closed = true;
    const bridges = [...this.all];
    this.all.clear();
    this.idle.length = 0;
    for (const wake of this.waiting.splice(0)) wake();
    await Promise.all(bridges.map((bridge) => bridge.close()));
  }

  private drop(bridge: BridgeProcess): void {
    this.all.delete(bridge);
    void bridge.kill();
  }
}
