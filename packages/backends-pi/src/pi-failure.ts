import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

/** The status a provider SDK puts first in its message (`401 Incorrect API key…`), or names (`status code 503`). */
const STATUS_PATTERN = /^(\d{3})\b|\bstatus(?: code)?:? (\d{3})\b/i;
const CONNECTION_PATTERN = /connection (?:error|refused|reset|closed)|fetch failed|ECONNREFUSED|ECONNRESET|ENOTFOUND|socket hang up|timed? ?out|network/i;
const QUOTA_PATTERN = /insufficient_quota|exceeded your current quota|billing/i;
const UNKNOWN_MODEL_PATTERN = /\bmodel\b.*\bnot found\b|no models? (?:match|found)|unknown model/i;

/**
 * What a failure Pi reported (an assistant message that stopped with `error`, its
 * `errorMessage`) means, by its message: Pi passes on the provider SDK's error, which starts with
 * the HTTP status. A refused key, an unknown model or a bad request cannot succeed on another try;
 * a rate limit, a server error or a lost connection may; anything else is a crashed run, worth
 * another try as every infrastructure failure is.
 */
export function classifyPiFailure(message: string): HarnessReportedFailure {
  const found = STATUS_PATTERN.exec(message.trim());
  const status = Number(found?.[1] ?? found?.[2] ?? Number.NaN);
  if (status === 401 || status === 403) return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
  if (status === 404) return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (status === 429)
    return QUOTA_PATTERN.test(message)
      ? { message, code: ERROR_CODES.providerQuotaExceeded, retryable: false }
      : { message, code: ERROR_CODES.providerRateLimited, retryable: true };
  if (status === 408) return { message, code: ERROR_CODES.providerTimeout, retryable: true };
  if (status >= 500) return { message, code: ERROR_CODES.providerUnavailable, retryable: true };
  if (status >= 400) return { message, code: ERROR_CODES.providerBadRequest, retryable: false };
  if (UNKNOWN_MODEL_PATTERN.test(message)) return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (CONNECTION_PATTERN.test(message)) return { message, code: ERROR_CODES.providerConnection, retryable: true };
  return { message };
}
