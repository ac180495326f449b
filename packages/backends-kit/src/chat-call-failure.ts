import { ERROR_CODES, ProviderError } from '@skillopt/contract';

/**
 * A harness run that ran out of time is, for a chat call made through it, a call that did: the
 * caller's code for that is `provider-timeout` (retryable), not the agent run's `process-timeout`.
 * Every other error is returned as it is.
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
