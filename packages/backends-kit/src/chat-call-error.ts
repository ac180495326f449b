import { ERROR_CODES, ProviderError } from '@skillopt/contract';

/**
 * The error a chat model built on the agent-run flow throws for a run that failed: a harness that
 * ran out of time (`process-timeout`) is, for the caller of a chat call, a call that did — the code
 * every chat model gives it is `provider-timeout`; the process behind it is the backend's detail.
 * Every other error passes through unchanged.
 */
export function chatCallErrorOf(error: unknown): unknown {
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
