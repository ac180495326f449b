import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

const QUOTA_PATTERN = /insufficient_quota|exceeded your current quota|quota|billing/i;
const CONNECTION_PATTERN = /ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|fetch failed|socket hang up|connection (?:refused|reset|closed)|timed? ?out/i;

/** What Copilot prints when a session ends in error: its `session.error` event's data. */
export interface CopilotSessionError {
  errorType?: unknown;
  message?: unknown;
  statusCode?: unknown;
}

/**
 * What a `session.error` means, by the provider's status code and Copilot's error type. Copilot
 * has already retried a transient failure itself (a 5xx or 429 five times) before it prints one,
 * so a rate limit or a server error that reaches us is still worth another run, but a refused key,
 * an unknown model or a bad request cannot succeed on another try. Anything else is a crashed run,
 * worth another try as every infrastructure failure is.
 */
export function classifyCopilotFailure(error: CopilotSessionError): HarnessReportedFailure {
  const message =
    typeof error.message === 'string' && error.message !== '' ? error.message : `Copilot ended with a ${String(error.errorType ?? 'session')} error`;
  const status = typeof error.statusCode === 'number' ? error.statusCode : Number.NaN;
  if (status === 401 || status === 403 || error.errorType === 'authentication') return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
  if (status === 404) return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (status === 429 || error.errorType === 'rate_limit')
    return QUOTA_PATTERN.test(message)
      ? { message, code: ERROR_CODES.providerQuotaExceeded, retryable: false }
      : { message, code: ERROR_CODES.providerRateLimited, retryable: true };
  if (status === 408) return { message, code: ERROR_CODES.providerTimeout, retryable: true };
  if (status >= 500) return { message, code: ERROR_CODES.providerUnavailable, retryable: true };
  if (status >= 400) return { message, code: ERROR_CODES.providerBadRequest, retryable: false };
  if (CONNECTION_PATTERN.test(message)) return { message, code: ERROR_CODES.providerConnection, retryable: true };
  return { message };
}
