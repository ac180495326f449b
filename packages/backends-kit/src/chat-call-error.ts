import { ERROR_CODES, ProviderError } from '@skillopt/contract';

/**
 * The error of a chat call served by an agent CLI, as a chat model's caller reads it: a run that
 * ran out of time (`process-timeout`) is a call that did (`provider-timeout`, retryable), as for
 * every chat model; the process behind it is the backend's detail. Any other error is returned as it is.
 */
export function asChatCallError(error: unknown): unknown {
  if (!ProviderError.isInstance(error) || error.code !== ERROR_CODES.processTimeout) return error;
  return new ProviderError({
    code: ERROR_CODES.providerTimeout,
    provider: error.provider,
    retryable: true,
    message: error.message,
    details: error.details ?? {},
    cause: error,
  });
}
