import { ERROR_CODES, ProviderError, SkillOptError, redactSecretText } from '@skillopt/contract';
import { providerErrorFromNetworkFailure, providerErrorFromResponse, type HeaderSource } from '@skillopt/backends-kit';
import { ANTHROPIC_PROVIDER } from './provider.js';

/** The parts of the SDK's APIError this mapping reads (duck-typed, so another copy of the SDK fits). */
interface SdkApiError {
  name?: string;
  status?: unknown;
  headers?: unknown;
  error?: unknown;
  requestID?: string | null;
  message?: string;
}

function errorBody(error: SdkApiError): { type?: string; message?: string } {
  const body = error.error as { error?: { type?: unknown; message?: unknown }; type?: unknown; message?: unknown } | undefined;
  const inner = body?.error ?? body;
  return {
    ...(typeof inner?.type === 'string' ? { type: inner.type } : {}),
    ...(typeof inner?.message === 'string' ? { message: inner.message } : {}),
  };
}

function isHeaderSource(value: unknown): value is HeaderSource {
  return typeof value === 'object' && value !== null;
}

/**
 * Any failure of one Messages API attempt as a SkillOptError that says whether trying again can
 * help, following backends-kit's one table of what is retryable:
 * - HTTP 429 (retry-after kept), 408, 409, 5xx and Anthropic's 529 `overloaded_error`: retryable;
 * - 401/403: `provider-authentication`, 404: `model-not-found` naming the model, other 4xx:
 *   `provider-bad-request`; none retryable;
 * - the SDK's connection timeout: a retryable `provider-timeout`; a failed or reset connection: a
 *   retryable `provider-connection`;
 * - a body that is not JSON: a retryable `reply-malformed`.
 * Every text taken from the failure (the provider's body, the network error, which names the URL)
 * is scrubbed of `knownSecrets` (the API key, the base URL's secret query values) and of anything
 * key-shaped: a gateway or proxy in front of the API may echo request headers into its error bodies.
 */
export function providerErrorFromAttempt(error: unknown, modelId: string, knownSecrets: ReadonlyArray<string | undefined> = []): unknown {
  if (SkillOptError.isInstance(error)) return error;
  if (typeof error !== 'object' || error === null) return error;
  const sdkError = error as SdkApiError;
  if (sdkError.name === 'APIUserAbortError') return error; // the caller's abort: withRetry rethrows the signal's reason

  if (sdkError.name === 'APIConnectionTimeoutError')
    return new ProviderError({
      code: ERROR_CODES.providerTimeout,
      provider: ANTHROPIC_PROVIDER,
      retryable: true,
      message: `${ANTHROPIC_PROVIDER} did not answer in time (${modelId})`,
      cause: error,
      details: { modelId },
    });

  if (typeof sdkError.status === 'number') {
    const status = sdkError.status;
    const body = errorBody(sdkError);
    const requestId = sdkError.requestID ?? undefined;
    const detail = redactSecretText([body.type, body.message].filter((part) => part !== undefined).join(': '), knownSecrets);
    const facts = { modelId, ...(body.type ? { errorType: body.type } : {}), ...(requestId ? { requestId } : {}) };
    if (status === 404)
      return new ProviderError({
        code: ERROR_CODES.modelNotFound,
        provider: ANTHROPIC_PROVIDER,
        status,
        retryable: false,
        message: `${ANTHROPIC_PROVIDER} has no model "${modelId}" (HTTP 404${detail ? ` ${detail}` : ''}): check model.target / model.optimizer (or backends.anthropic.<role>.model) and base_url`,
        cause: error,
        details: { status, ...facts },
      });
    const mapped = providerErrorFromResponse({
      provider: ANTHROPIC_PROVIDER,
      status,
      ...(isHeaderSource(sdkError.headers) ? { headers: sdkError.headers } : {}),
      ...(detail ? { detail } : {}),
      cause: error,
    });
    return new ProviderError({
      code: mapped.code,
      provider: ANTHROPIC_PROVIDER,
      status,
      retryable: mapped.retryable,
      ...(mapped.retryAfterMs === undefined ? {} : { retryAfterMs: mapped.retryAfterMs }),
      message: status === 529 ? `${mapped.message} (Anthropic is overloaded; retried with backoff)` : mapped.message,
      cause: error,
      details: { ...mapped.details, ...facts },
    });
  }

  // By name, not instanceof: fetch's JSON parser may throw from another realm's SyntaxError.
  if (sdkError.name === 'SyntaxError')
    return new ProviderError({
      code: ERROR_CODES.replyMalformed,
      provider: ANTHROPIC_PROVIDER,
      retryable: true,
      message: `${ANTHROPIC_PROVIDER} sent a body that is not valid JSON (${modelId}): ${redactSecretText(String(sdkError.message), knownSecrets)}`,
      cause: error,
      details: { modelId },
    });

  const network = providerErrorFromNetworkFailure(
    ANTHROPIC_PROVIDER,
    sdkError.name === 'APIConnectionError' ? ((error as { cause?: unknown }).cause ?? error) : error,
    knownSecrets,
  );
  // The SDK raises APIConnectionError only for a request that got no answer: a network failure
  // even when the underlying error does not say which kind.
  if (sdkError.name === 'APIConnectionError' && !network.retryable)
    return new ProviderError({ code: ERROR_CODES.providerConnection, provider: ANTHROPIC_PROVIDER, retryable: true, message: network.message, cause: error });
  return network;
}
