import { ERROR_CODES, ProviderError, SkillOptError, redactSecretText } from '@skillopt/contract';
import { classifyNetworkFailure, nearestName, providerErrorFromNetworkFailure, providerErrorFromResponse } from '@skillopt/backends-kit';
import { APIConnectionError, APIConnectionTimeoutError, APIError, APIUserAbortError, OpenAIError } from 'openai';
import { priceTable } from './price-table.js';
import { answerFailure } from './reply-errors.js';
import { knownSecretsOf, type ModelCredentials, type ResolvedModelSettings } from './resolve-model-settings.js';
import { describeUrl } from './safe-url.js';

/**
 * What an OpenAI SDK failure means, as a ProviderError with the contract's code. The SDK's own
 * retries are off, so each failure arrives here once per attempt and backends-kit's `withRetry`
 * decides on a retry from `retryable`:
 *
 * | failure                              | code                    | retryable |
 * | ------------------------------------ | ----------------------- | --------- |
 * | 429 (rate limit)                     | provider-rate-limited   | yes, after `retry-after` |
 * | 429 `insufficient_quota`             | provider-quota-exceeded | no: no wait refills a quota |
 * | 408, 409, 5xx                        | provider-timeout/-unavailable | yes |
 * | 401, 403                             | provider-authentication | no   |
 * | 404                                  | model-not-found (names model and base URL, and the nearest priced model) | no |
 * | 400 content filter (Azure)           | reply-refused           | for core only |
 * | other 4xx                            | provider-bad-request    | no   |
 * | reset/refused connection             | provider-connection     | yes  |
 * | SDK timeout                          | provider-timeout        | yes  |
 * | a body that is not JSON              | reply-malformed         | yes  |
 *
 * Messages never carry the key: the provider's text is scrubbed of it and of anything key-shaped.
 */
export function providerErrorFromSdkFailure(error: unknown, settings: ResolvedModelSettings, credentials: ModelCredentials): unknown {
  const { provider } = settings;
  const inner = skillOptErrorInside(error);
  if (inner) return inner;
  // The caller's abort (or our timeout's): withTimeout/withRetry report it with the right reason.
  if (error instanceof APIUserAbortError) return error;
  if (error instanceof APIConnectionTimeoutError)
    return new ProviderError({
      code: ERROR_CODES.providerTimeout,
      provider,
      retryable: true,
      message: `${provider} at ${describeUrl(settings.baseUrl)} did not answer in time`,
      cause: error,
    });
  if (error instanceof APIConnectionError) {
    const mapped = providerErrorFromNetworkFailure(provider, error.cause ?? error, knownSecretsOf(credentials));
    if (!ProviderError.isInstance(mapped)) return mapped;
    return new ProviderError({
      code: mapped.code,
      provider,
      retryable: mapped.retryable,
      message: `could not reach ${provider} at ${describeUrl(settings.baseUrl)}: ${scrub(describeCause(error), credentials)}`,
      cause: error,
    });
  }
  if (error instanceof APIError && typeof error.status === 'number') return fromStatus(error, settings, credentials);
  // By name: undici's body parser may throw a SyntaxError of another realm.
  if (isErrorLike(error) && error.name === 'SyntaxError')
    return new ProviderError({
      code: ERROR_CODES.replyMalformed,
      provider,
      retryable: true,
      message: `${provider} at ${describeUrl(settings.baseUrl)} answered with a body that is not valid JSON: ${error.message}`,
      cause: error,
    });
  // A connection that broke after the headers arrived, while the body was read.
  if (classifyNetworkFailure(error) !== undefined) {
    const mapped = providerErrorFromNetworkFailure(provider, error, knownSecretsOf(credentials));
    return ProviderError.isInstance(mapped)
      ? new ProviderError({
          code: mapped.code,
          provider,
          retryable: mapped.retryable,
          message: `${provider} at ${describeUrl(settings.baseUrl)} broke off its answer: ${scrub(describeCause(error as Error), credentials)}`,
          cause: error,
        })
      : mapped;
  }
  if (error instanceof OpenAIError)
    return new ProviderError({
      code: ERROR_CODES.providerBadRequest,
      provider,
      retryable: false,
      message: `${provider}: ${scrub(error.message, credentials)}`,
      cause: error,
    });
  return error;
}

function fromStatus(error: APIError, settings: ResolvedModelSettings, credentials: ModelCredentials): ProviderError {
  const { provider } = settings;
  const status = error.status as number;
  const detail = scrub(providerMessage(error), credentials);
  const where = describeUrl(settings.baseUrl);
  const details = { status, model: settings.modelId, ...(error.requestID ? { requestId: error.requestID } : {}) };

  if (status === 404)
    return new ProviderError({
      code: ERROR_CODES.modelNotFound,
      provider,
      status,
      retryable: false,
      message: `${provider} has no model "${settings.wireModel}" at ${where} (HTTP 404${detail ? `: ${detail}` : ''})${knownModelHint(settings)}; check model.${settings.role} (or the deployment) and the base URL`,
      details,
      cause: error,
    });
  if (status === 429 && error.code === 'insufficient_quota')
    return new ProviderError({
      code: ERROR_CODES.providerQuotaExceeded,
      provider,
      status,
      retryable: false,
      message: `${provider}: the account's quota is used up (HTTP 429 insufficient_quota); add credit or raise the limit, waiting will not help`,
      details,
      cause: error,
    });
  if (status === 400 && (error.code === 'content_filter' || error.code === 'content_policy_violation'))
    return answerFailure({
      code: ERROR_CODES.replyRefused,
      provider,
      status,
      message: `${provider} ${settings.modelId} refused the prompt: its content filter rejected it${detail ? ` (${detail})` : ''}`,
      details,
      cause: error,
    });

  const base = providerErrorFromResponse({ provider, status, headers: error.headers, detail, knownSecrets: knownSecretsOf(credentials), cause: error });
  let message = base.message;
  if (status === 401 || status === 403)
    message += settings.apiKeyVariable
      ? ` (the key came from ${settings.apiKeyVariable})`
      : settings.azure && settings.azure.authMode !== 'api_key'
        ? ` (signed in with Microsoft Entra ID, auth_mode ${settings.azure.authMode})`
        : ` (no API key was sent: set ${settings.apiKeyVariableToSet})`;
  return new ProviderError({
    code: base.code,
    provider,
    status,
    retryable: base.retryable,
    ...(base.retryAfterMs === undefined ? {} : { retryAfterMs: base.retryAfterMs }),
    message,
    details: { ...details, ...(base.retryAfterMs === undefined ? {} : { retryAfterMs: base.retryAfterMs }) },
    cause: error,
  });
}

/** `; did you mean "gpt-4o-mini"?` when the model is a slip of one this package prices for the provider (its list of known models), else nothing. */
function knownModelHint(settings: ResolvedModelSettings): string {
  const known = priceTable.filter((price) => price.provider === settings.provider && price.modelId !== '*').map((price) => price.modelId);
  const nearest = nearestName(settings.wireModel, known);
  return nearest === undefined ? '' : `; did you mean "${nearest}"?`;
}

/** The provider's own message (`error.message` of its JSON body), else the SDK's. */
function providerMessage(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (typeof body?.message === 'string' && body.message.trim() !== '') return body.message;
  return error.message.replace(/^\d{3}\s+/, '').replace(/^status code \(no body\)$/, '');
}

function skillOptErrorInside(error: unknown): SkillOptError | undefined {
  const seen = new Set<unknown>();
  for (let current = error; typeof current === 'object' && current !== null && !seen.has(current); current = (current as { cause?: unknown }).cause) {
    seen.add(current);
    if (SkillOptError.isInstance(current)) return current;
  }
  return undefined;
}

function isErrorLike(value: unknown): value is Error {
  return typeof value === 'object' && value !== null && typeof (value as { message?: unknown }).message === 'string';
}

function describeCause(error: Error): string {
  const parts: string[] = [];
  const seen = new Set<unknown>();
  for (let current: unknown = error; isErrorLike(current) && !seen.has(current); current = current.cause) {
    seen.add(current);
    const code = (current as { code?: unknown }).code;
    parts.push(`${current.message}${typeof code === 'string' ? ` (${code})` : ''}`);
  }
  return parts.join(': ');
}

/** Removes the key itself, the base URL's secret query values, and anything shaped like a provider key or bearer token. */
function scrub(text: string, credentials: ModelCredentials): string {
  return redactSecretText(text, knownSecretsOf(credentials));
}
