import { forkLatencySlots } from '@skillopt/runtime-kit';

/**
 * A controller that aborts when `parent` does, so a stage can stop its own remaining calls (after
 * one of them threw) without aborting the caller's run. `dispose` detaches it from the parent.
 */
function linkedAbortController(parent: AbortSignal): { controller: AbortController; dispose: () => void } {
  const controller = new AbortController();
  const onAbort = (): void => controller.abort(parent.reason);
  if (parent.aborted) controller.abort(parent.reason);
  else parent.addEventListener('abort', onAbort, { once: true });
  return { controller, dispose: () => parent.removeEventListener('abort', onAbort) };
}

/**
 * Runs the tasks together, each a branch of the caller's latency-slot chain; the first to throw
 * aborts the others' signal and its error is thrown.
 */
export async function allOrAbort<Value>(parent: AbortSignal, tasks: ReadonlyArray<(signal: AbortSignal) => Promise<Value>>): Promise<Value[]> {
  const { controller, dispose } = linkedAbortController(parent);
  const branches = forkLatencySlots(Number.POSITIVE_INFINITY);
  try {
    return await Promise.all(
      tasks.map((task) =>
        branches
          .branch(() => task(controller.signal))
          .catch((error: unknown) => {
            controller.abort(error);
            throw error;
          }),
      ),
    );
  } finally {
    branches.join();
    dispose();
  }
}
