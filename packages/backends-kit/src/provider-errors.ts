import { ERROR_CODES, ProviderError, redactSecretText, SkillOptError, type ErrorCode } from '@skillopt/contract';
import type { HeaderSource } from './headers.js';
import { parseRetryAfter } from './retry-after.js';
import { classifyNetworkFailure, isRetryableStatus } from './retryable.js';

export interface ProviderResponseFailure {
  /** The provider's name, e.g. `openai`. */
  provider: string;
  status: number;
  headers?: HeaderSource | undefined;
  /**
   * What the provider said, usually its error message or the response body. Shortened to
   * `maxDetailLength` characters, and scrubbed of `knownSecrets` and of anything shaped like a
   * credential: a gateway or proxy in front of a provider may echo a request's key or URL.
   */
  detail?: string | undefined;
  /** The secrets the caller holds (its API key), cut out of `detail` wherever they appear. */
  knownSecrets?: ReadonlyArray<string | undefined> | undefined;
  cause?: unknown;
  /** The clock for HTTP-date `retry-after` values; injectable for tests. */
  now?: number;
}

const MAX_DETAIL_LENGTH = 500;

/**
 * A ProviderError for a non-2xx answer, with the code, retryability and `retryAfterMs` that
 * status and headers imply:
 *
 * | status            | code                   | retryable |
 * | ----------------- | ---------------------- | --------- |
 * | 429               | provider-rate-limited  | yes       |
 * | 408, 504          | provider-timeout       | yes       |
 * | 409, other 5xx    | provider-unavailable   | yes       |
 * | 401, 403          | provider-authentication| no        |
 * | 404               | model-not-found        | no        |
 * | 400, 422, other 4xx | provider-bad-request | no        |
 * | anything else     | provider-unavailable   | no        |
 *
 * A provider that signals something finer (OpenAI's 429 `insufficient_quota`, which no wait
 * fixes) should build its own ProviderError for that case instead.
 */
export function providerErrorFromResponse(failure: ProviderResponseFailure): ProviderError {
  const { provider, status } = failure;
  const code = errorCodeForStatus(status);
  const retryAfterMs = parseRetryAfter(failure.headers, failure.now);
  const detail = failure.detail === undefined ? undefined : redactSecretText(failure.detail, failure.knownSecrets).trim();
  const shortened = detail === undefined || detail === '' ? undefined : detail.length > MAX_DETAIL_LENGTH ? `${detail.slice(0, MAX_DETAIL_LENGTH)}…` : detail;
  return new ProviderError({
    code,
    provider,
    status,
    retryable: isRetryableStatus(status),
    ...(retryAfterMs === undefined ? {} : { retryAfterMs }),
    message: `${provider} answered HTTP ${status} (${describeStatus(status)})${shortened === undefined ? '' : `: ${shortened}`}`,
    ...(failure.cause === undefined ? {} : { cause: failure.cause }),
    details: { status, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
  });
}

function errorCodeForStatus(status: number): ErrorCode {
  if (status === 429) return ERROR_CODES.providerRateLimited;
  if (status === 408 || status === 504) return ERROR_CODES.providerTimeout;
  if (status === 401 || status === 403) return ERROR_CODES.providerAuthentication;
  if (status === 404) return ERROR_CODES.modelNotFound;
  if (status === 409 || (status >= 500 && status <= 599)) return ERROR_CODES.providerUnavailable;
  if (status >= 400 && status <= 499) return ERROR_CODES.providerBadRequest;
  return ERROR_CODES.providerUnavailable;
}

function describeStatus(status: number): string {
  switch (status) {
    case 400:
      return 'bad request';
    case 401:
      return 'not authenticated: check the API key';
    case 403:
      return 'forbidden: the key lacks access';
    case 404:
      return 'not found: check the model name and endpoint';
    case 408:
      return 'request timeout';
    case 409:
      return 'conflict';
    case 422:
      return 'unprocessable request';
    case 429:
      return 'rate limited';
    case 504:
      return 'gateway timeout';
    default:
      if (status >= 500 && status <= 599) return 'server error';
      if (status >= 400 && status <= 499) return 'client error';
      return 'unexpected status';
  }
}

/**
 * A ProviderError for a request that got no HTTP answer. A broken connection becomes a retryable
 * `provider-connection`, a timeout a retryable `provider-timeout`; a SkillOptError is returned
 * unchanged; anything else becomes a non-retryable `provider-connection` that keeps the original
 * as `cause`, since an unknown failure is more likely a bug than a hiccup. The original's message
 * often holds the URL that failed (`http://user:password@…?api-key=…`), so it is scrubbed of
 * `knownSecrets` and of anything shaped like a credential.
 */
export function providerErrorFromNetworkFailure(provider: string, error: unknown, knownSecrets: ReadonlyArray<string | undefined> = []): SkillOptError {
  if (SkillOptError.isInstance(error)) return error;
  const kind = classifyNetworkFailure(error);
  const original = redactSecretText(error instanceof Error ? error.message : String(error), knownSecrets);
  if (kind === 'timeout')
    return new ProviderError({
      code: ERROR_CODES.providerTimeout,
      provider,
      retryable: true,
      message: `${provider} did not answer in time: ${original}`,
      cause: error,
    });
  return new ProviderError({
    code: ERROR_CODES.providerConnection,
    provider,
    retryable: kind === 'connection',
    message: `could not reach ${provider}: ${original}`,
    cause: error,
  });
}
