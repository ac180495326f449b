import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

/**
 * The failure a result event with `is_error` reports, classified by the API status Claude Code
 * saw: a refused credential, an unknown model or a bad request cannot succeed on a retry; an
 * overloaded or unreachable API, a limit on turns, or an error during execution may.
 */
export function failureOfResult(result: Record<string, unknown>): HarnessReportedFailure {
  const status = typeof result.api_error_status === 'number' ? result.api_error_status : undefined;
  const text = typeof result.result === 'string' && result.result.trim() !== '' ? result.result.trim() : undefined;
  const subtype = typeof result.subtype === 'string' ? result.subtype : 'error';
  const message = text ?? `the run ended with ${subtype}`;
  if (status === 401 || status === 403 || /invalid api key|not logged in|authentication/i.test(message))
    return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
  if (status === 404 || /model .*(not found|not available|does not exist)|unknown model|invalid model/i.test(message))
    return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (status === 400) return { message, code: ERROR_CODES.providerBadRequest, retryable: false };
  if (status === 429) return { message, code: ERROR_CODES.providerRateLimited, retryable: true };
  if (status !== undefined) return { message, code: ERROR_CODES.providerUnavailable, retryable: true };
  return { message, code: ERROR_CODES.processCrashed, retryable: true };
}
