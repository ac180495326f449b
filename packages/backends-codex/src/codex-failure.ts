import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

const STATUS_PATTERN = /\bunexpected status (\d{3})\b/;
const CONNECTION_PATTERN = /stream disconnected|error sending request|connection (?:refused|reset|closed)|reconnecting|timed out|dns error/i;
const QUOTA_PATTERN = /insufficient_quota|exceeded your current quota|billing/i;

/**
 * What a failure Codex reported (`turn.failed` or an `error` event) means, by its message: Codex
 * prints a provider's refusal as `unexpected status <code> <reason>: <body>`. A refused key, an
 * unknown model or a bad request cannot succeed on another try; a rate limit, a server error or a
 * lost connection may; anything else is a crashed run, worth another try as every infrastructure
 * failure is.
 */
export function classifyCodexFailure(message: string): HarnessReportedFailure {
  const status = Number(STATUS_PATTERN.exec(message)?.[1] ?? Number.NaN);
  if (status === 401 || status === 403) return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
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
