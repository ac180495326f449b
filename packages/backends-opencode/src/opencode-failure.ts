import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

/** OpenCode's error of a session (`session.error`, printed as an `error` event): a name and, for an API error, its data. */
export interface OpencodeError {
  name?: unknown;
  data?: { message?: unknown; statusCode?: unknown; isRetryable?: unknown } | undefined;
}

const CONNECTION_PATTERN = /ECONNREFUSED|ECONNRESET|connection (?:refused|reset|closed)|socket hang up|fetch failed|unable to connect|timed out/i;
const QUOTA_PATTERN = /insufficient_quota|exceeded your current quota|billing/i;

/**
 * What an error OpenCode reported means, by its API status where it has one: a refused key, an
 * unknown model or a bad request cannot succeed on another try; a rate limit, a server error or a
 * lost connection may; anything else is a crashed run, worth another try as every infrastructure
 * failure is. OpenCode names a refused key `ProviderAuthError`.
 */
export function classifyOpencodeError(error: OpencodeError): HarnessReportedFailure {
  const name = typeof error.name === 'string' ? error.name : 'UnknownError';
  const detail = typeof error.data?.message === 'string' && error.data.message !== '' ? error.data.message : undefined;
  const message = detail === undefined ? name : `${name}: ${detail}`;
  const status = typeof error.data?.statusCode === 'number' ? error.data.statusCode : Number.NaN;
  if (status === 401 || status === 403 || name === 'ProviderAuthError') return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
  if (status === 404) return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (status === 429)
    return QUOTA_PATTERN.test(message)
      ? { message, code: ERROR_CODES.providerQuotaExceeded, retryable: false }
      : { message, code: ERROR_CODES.providerRateLimited, retryable: true };
  if (status === 408) return { message, code: ERROR_CODES.providerTimeout, retryable: true };
  if (status >= 500) return { message, code: ERROR_CODES.providerUnavailable, retryable: true };
  if (status >= 400) return { message, code: ERROR_CODES.providerBadRequest, retryable: false };
  if (CONNECTION_PATTERN.test(message)) return { message, code: ERROR_CODES.providerConnection, retryable: true };
  return { message };
}
