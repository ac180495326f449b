import { SkillOptError } from '@skillopt/contract';

/**
 * Which failures are worth trying again. One list for every backend, so that "retryable" means the
 * same thing whichever provider failed.
 */

/**
 * 408 (request timeout), 409 (conflict: providers answer it for a lock that was briefly held),
 * 429 (rate limited) and every 5xx are transient. Any other status, notably 400, 401, 403, 404 and
 * 422, will fail the same way again.
 */
export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 409 || status === 429 || (status >= 500 && status <= 599);
}

// Error codes Node (libuv and undici) gives a connection that failed or broke off.
const CONNECTION_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ENETDOWN',
  'ENETRESET',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  // A DNS server that did not answer; ENOTFOUND is left out since a misspelt host stays misspelt.
  'EAI_AGAIN',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
]);

const TIMEOUT_ERROR_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT']);

const CONNECTION_MESSAGE = /socket hang up|connection (reset|refused|closed|terminated)|ECONNRESET|ECONNREFUSED|other side closed/i;
const TIMEOUT_MESSAGE = /timed? ?out|timeout/i;

export type NetworkFailureKind = 'connection' | 'timeout';

/**
 * Whether `error` is a broken connection or a timeout, looking through `cause` chains because
 * fetch wraps the real socket error in `TypeError: fetch failed`.
 */
export function classifyNetworkFailure(error: unknown): NetworkFailureKind | undefined {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (typeof current === 'object' && current !== null && !seen.has(current)) {
    seen.add(current);
    const candidate = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    const code = typeof candidate.code === 'string' ? candidate.code : undefined;
    if (code !== undefined && TIMEOUT_ERROR_CODES.has(code)) return 'timeout';
    if (code !== undefined && CONNECTION_ERROR_CODES.has(code)) return 'connection';
    // AbortSignal.timeout() aborts with a DOMException named TimeoutError.
    if (candidate.name === 'TimeoutError') return 'timeout';
    if (typeof candidate.message === 'string') {
      if (CONNECTION_MESSAGE.test(candidate.message)) return 'connection';
      if (TIMEOUT_MESSAGE.test(candidate.message)) return 'timeout';
    }
    current = candidate.cause;
  }
  return undefined;
}

/**
 * The default retry decision.
 * - A SkillOptError (ProviderError included) decides for itself through `retryable`: whoever
 *   built it knew more than a status code says.
 * - An error carrying an HTTP `status` or `statusCode` (SDK errors) is retryable when the status is.
 * - A broken connection or a timeout is retryable.
 * - Anything else, including an AbortError from the caller, is not: retrying a bug or a
 *   cancellation only repeats it.
 */
export function isRetryableError(error: unknown): boolean {
  if (SkillOptError.isInstance(error)) return error.retryable;
  if (typeof error !== 'object' || error === null) return false;
  if ((error as { name?: unknown }).name === 'AbortError') return false;
  const { status, statusCode } = error as { status?: unknown; statusCode?: unknown };
  const httpStatus = typeof status === 'number' ? status : typeof statusCode === 'number' ? statusCode : undefined;
  if (httpStatus !== undefined) return isRetryableStatus(httpStatus);
  return classifyNetworkFailure(error) !== undefined;
}
