import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { abortReason } from './abortable-wait.js';
import { requirePositiveNumber } from './invalid-option.js';

export interface TimeoutOptions {
  timeoutMs: number;
  /** The caller's signal; its abort wins over the timeout and passes its reason through. */
  signal?: AbortSignal;
  /** Named in the timeout error. Default `unknown`; backends should pass their id. */
  provider?: string;
  /** What timed out, for the message, e.g. `chat completion`. Default `the call`. */
  operationName?: string;
}

/**
 * Runs `operation` with a signal that aborts when the caller's signal does or when `timeoutMs`
 * passes, whichever comes first; pass that signal on to fetch or the SDK so the request really
 * stops.
 *
 * On timeout it rejects with a retryable ProviderError `provider-timeout` (a slow answer may be
 * quick next time); on the caller's abort it rejects with the caller's reason, as the contract
 * asks. It settles at that moment even if `operation` ignores its signal. The timer is cleared
 * whatever happens, so it never holds the process open.
 */
export function withTimeout<T>(operation: (signal: AbortSignal) => Promise<T>, options: TimeoutOptions): Promise<T> {
  const { timeoutMs, signal: parent } = options;
  requirePositiveNumber('timeoutMs', timeoutMs);
  if (parent?.aborted) return Promise.reject(abortReason(parent));

  const controller = new AbortController();
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const finish = (settle: () => void): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      parent?.removeEventListener('abort', onParentAbort);
      settle();
    };
    const onParentAbort = (): void => {
      const reason = abortReason(parent as AbortSignal);
      controller.abort(reason);
      finish(() => reject(reason));
    };
    const timer = setTimeout(() => {
      const provider = options.provider ?? 'unknown';
      const error = new ProviderError({
        code: ERROR_CODES.providerTimeout,
        provider,
        retryable: true,
        message: `${options.operationName ?? 'the call'} to ${provider} took longer than ${timeoutMs} ms`,
        details: { timeoutMs },
      });
      controller.abort(error);
      finish(() => reject(error));
    }, timeoutMs);
    parent?.addEventListener('abort', onParentAbort, { once: true });

    let result: Promise<T>;
    try {
      result = Promise.resolve(operation(controller.signal));
    } catch (error) {
      result = Promise.reject(error);
    }
    result.then(
      (value) => finish(() => resolve(value)),
      (error: unknown) => finish(() => reject(error)),
    );
  });
}
