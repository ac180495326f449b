import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { requirePositiveNumber, withDeadline } from '@skillopt/runtime-kit';

export interface TimeoutOptions {
  timeoutMs: number;
  /** The caller's signal; its abort wins over the timeout and passes its reason through. */
  signal?: AbortSignal | undefined;
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
  const { timeoutMs } = options;
  // Checked before anything runs, so a bad limit throws where it was passed rather than rejecting later.
  requirePositiveNumber('timeoutMs', timeoutMs);
  const provider = options.provider ?? 'unknown';
  return withDeadline(operation, {
    timeoutMs,
    ...(options.signal ? { signal: options.signal } : {}),
    timeoutReason: () =>
      new ProviderError({
        code: ERROR_CODES.providerTimeout,
        provider,
        retryable: true,
        message: `${options.operationName ?? 'the call'} to ${provider} took longer than ${timeoutMs} ms`,
        details: { timeoutMs },
      }),
  });
}
