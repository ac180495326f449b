import { ERROR_CODES } from '@skillopt/contract';
import type { HarnessReportedFailure } from '@skillopt/backends-kit';

/** The original's markers of a refused login or key: another try cannot succeed. */
const AUTHENTICATION = /not authenticated|authentication required|not logged in|please log in|login required|unauthori[sz]ed|invalid api key|\b40[13]\b/i;
/** The original's markers of a model this account cannot use. */
const MODEL = /invalid model|unsupported model|model not found|not available for your account/i;
/** The original's markers of a command line or config this CLI refuses (another version of it, most likely). */
const CONFIGURATION = /unknown option|invalid option|invalid configuration/i;
const RATE_LIMIT = /rate.?limit|too many requests|\b429\b/i;
const UNAVAILABLE = /\b5\d\d\b|service unavailable|overloaded|internal server error/i;
const CONNECTION = /ECONNREFUSED|ECONNRESET|ETIMEDOUT|ENOTFOUND|network error|connection (?:refused|reset|closed)|timed out/i;

/**
 * What a failure Cursor reported (an error `result` event, or the stderr of a run that exited
 * otherwise than 0) means, by its message. A refused login, a model the account lacks and a flag
 * or config the CLI refuses cannot succeed on another try: they are not retryable, so the run stops
 * there (fail closed, as the original did) rather than scoring empty answers. A rate limit, a
 * server error or a lost connection may pass; anything else is a failed run, worth another try as
 * every infrastructure failure is.
 */
export function classifyCursorFailure(message: string): HarnessReportedFailure {
  if (AUTHENTICATION.test(message)) return { message, code: ERROR_CODES.providerAuthentication, retryable: false };
  if (MODEL.test(message)) return { message, code: ERROR_CODES.modelNotFound, retryable: false };
  if (CONFIGURATION.test(message)) return { message, code: ERROR_CODES.providerBadRequest, retryable: false };
  if (RATE_LIMIT.test(message)) return { message, code: ERROR_CODES.providerRateLimited, retryable: true };
  if (UNAVAILABLE.test(message)) return { message, code: ERROR_CODES.providerUnavailable, retryable: true };
  if (CONNECTION.test(message)) return { message, code: ERROR_CODES.providerConnection, retryable: true };
  return { message };
}
