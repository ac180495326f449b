import { abortable, abortReason } from './abortable-wait.js';
import { requirePositiveNumber } from './invalid-option.js';

export interface DeadlineOptions {
  /** How long the work may take; absent: no limit of its own, only the caller's signal. */
  timeoutMs?: number;
  /** The caller's signal; its abort ends the deadline early and passes its reason through. */
  signal?: AbortSignal | undefined;
  /**
   * What the deadline's signal aborts with when the time is up. It is the error the work fails
   * with, so make it say what took too long and whether a retry may help (a ProviderError
   * `provider-timeout` for a model call, say).
   */
  timeoutReason: () => unknown;
}

/** A signal that aborts at the caller's abort or when the time is up, whichever comes first. */
export interface Deadline {
  readonly signal: AbortSignal;
  /** Clears the timer and lets go of the caller's signal; call it when the work is over. */
  dispose(): void;
}

/**
 * Starts a deadline for work that spans several steps (a tool loop's calls, one item's whole
 * rollout): hand its signal to each step. Its timer never keeps the process alive after
 * `dispose`.
 */
export function createDeadline(options: DeadlineOptions): Deadline {
  const { timeoutMs, signal: parent } = options;
  if (timeoutMs !== undefined) requirePositiveNumber('timeoutMs', timeoutMs);
  const controller = new AbortController();
  const onParentAbort = (): void => controller.abort(abortReason(parent as AbortSignal));
  if (parent?.aborted) onParentAbort();
  else parent?.addEventListener('abort', onParentAbort, { once: true });
  const timer = timeoutMs === undefined || controller.signal.aborted ? undefined : setTimeout(() => controller.abort(options.timeoutReason()), timeoutMs);
  return {
    signal: controller.signal,
    dispose() {
      if (timer !== undefined) clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
    },
  };
}

/**
 * Runs `operation` with a deadline's signal; pass it on to fetch, an SDK or a child process so the
 * work really stops. Rejects with the caller's reason when the caller aborts and with
 * `timeoutReason()` when the time is up, at that moment, even if `operation` ignores its signal.
 * The timer is cleared whatever happens. An already aborted caller's signal rejects at once,
 * without calling `operation`.
 */
export async function withDeadline<T>(operation: (signal: AbortSignal) => Promise<T>, options: DeadlineOptions): Promise<T> {
  if (options.signal?.aborted) throw abortReason(options.signal);
  const deadline = createDeadline(options);
  try {
    let work: Promise<T>;
    try {
      work = Promise.resolve(operation(deadline.signal));
    } catch (error) {
      work = Promise.reject(error);
    }
    return await abortable(work, deadline.signal);
  } finally {
    deadline.dispose();
  }
}
