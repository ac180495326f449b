import type { RunEvent } from '@skillopt/contract';

/** How long a run has taken and how long it may still take, told from its events and a clock. */
export interface RunPace {
  observe(event: RunEvent): void;
  /** Milliseconds since the run started (or resumed) in this process; undefined before `run-started`. */
  elapsedMs(now: number): number | undefined;
  /**
   * Milliseconds the run's remaining steps may take at the pace of the steps finished so far in this
   * process, less the time since the last one finished; undefined until a step has finished. Steps
   * a resumed run had done before are not counted: their time is not in these events. Undefined
   * too once no step is left: what follows (the epoch's end, the final test) has no pace to go by.
   */
  remainingMs(now: number): number | undefined;
}

export function createRunPace(): RunPace {
  let startedAt: number | undefined;
  let totalSteps = 0;
  let firstStep: { globalStep: number; startedAt: number } | undefined;
  let lastFinished: { globalStep: number; at: number } | undefined;
  return {
    observe(event) {
      const at = Date.parse(event.timestamp);
      if (event.type === 'run-started') {
        startedAt = at;
        totalSteps = event.epochs * event.stepsPerEpoch;
        firstStep = undefined;
        lastFinished = undefined;
      } else if (event.type === 'step-started') firstStep ??= { globalStep: event.globalStep, startedAt: at };
      else if (event.type === 'step-finished') lastFinished = { globalStep: event.globalStep, at };
    },
    elapsedMs(now) {
      return startedAt === undefined ? undefined : Math.max(0, now - startedAt);
    },
    remainingMs(now) {
      if (firstStep === undefined || lastFinished === undefined) return undefined;
      const stepsDone = lastFinished.globalStep - firstStep.globalStep + 1;
      if (stepsDone < 1) return undefined;
      const pace = (lastFinished.at - firstStep.startedAt) / stepsDone;
      const stepsLeft = totalSteps - lastFinished.globalStep;
      if (stepsLeft <= 0) return undefined;
      return Math.max(0, pace * stepsLeft - Math.max(0, now - lastFinished.at));
    },
  };
}
