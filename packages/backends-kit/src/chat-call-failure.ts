import { ERROR_CODES, ProviderError } from '@skillopt/contract';

/**
 * A harness run's error as a chat call's: a run that ran out of time (`process-timeout`) is, for
 * the caller of a chat model, a call that did, whose code is `provider-timeout`. Any other error
 * is returned as it is.
 */
export function asChatCallFailure(error: unknown): unknown {
  if (!ProviderError.isInstance(error) || error.code !== ERROR_CODES.processTimeout) return error;
  return new ProviderError({
    code: ERROR_CODES.providerTimeout,
    provider: error.provider,
    retryable: true,
    message: error.message,
    cause: error,
    ...(error.details ? { details: error.details } : {}),
  });
}
