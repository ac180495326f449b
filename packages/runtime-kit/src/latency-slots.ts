import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * A run's critical path counted in call latencies: the fewest latency slots in which its model
 * calls could complete if every call took one unit of time, given how they depend on each other and
 * the limits on calls in flight. Wall time at latency L is at least slots × L; the gap is slack in
 * the scheduling, or the loop's own work.
 *
 * Work that runs one step after another adds its slots up; a fork (a bounded concurrent map, two
 * evaluations at once) takes as many slots as its longest branch, or as its calls divided by the
 * fork's capacity, whichever is more. The tally is live: read it at any time during the work.
 */
export interface LatencySlotTally {
  slots: number;
  calls: number;
}

const currentChain = new AsyncLocalStorage<LatencySlotTally>();

/** Runs `work` with `tally` as the chain its calls and forks count into. */
export function measureLatencySlots<T>(tally: LatencySlotTally, work: () => T): T {
  return currentChain.run(tally, work);
}

/**
 * Counts a model call (one latency slot) in the chain of work that asks for it: the recorder is
 * bound to the chain current now, so a call that a limiter's queue starts later, from another
 * call's continuation, still counts where it was made. Outside a measurement it does nothing.
 */
export function latencySlotRecorder(): () => void {
  const chain = currentChain.getStore();
  return () => {
    if (chain === undefined) return;
    chain.slots += 1;
    chain.calls += 1;
  };
}

/** Branches of work that run at the same time, at most `capacity` calls of them in flight. */
export interface LatencySlotFork {
  /** Runs one branch as its own chain. */
  branch<T>(work: () => T): T;
  /** Adds the fork's slots to the chain that forked: call it once every branch has settled. */
  join(): void;
}

/** Opens a fork in the current chain (`capacity` may be Infinity: only the branches' own limits apply). */
export function forkLatencySlots(capacity: number): LatencySlotFork {
  const parent = currentChain.getStore();
  const branches: LatencySlotTally[] = [];
  return {
    branch(work) {
      if (parent === undefined) return work();
      const chain = { slots: 0, calls: 0 };
      branches.push(chain);
      return currentChain.run(chain, work);
    },
    join() {
      if (parent === undefined) return;
      let longest = 0;
      let calls = 0;
      for (const chain of branches) {
        longest = Math.max(longest, chain.slots);
        calls += chain.calls;
      }
      branches.length = 0;
      parent.slots += Math.max(longest, Number.isFinite(capacity) ? Math.ceil(calls / capacity) : 0);
      parent.calls += calls;
    },
  };
}
