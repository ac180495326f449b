import { ERROR_CODES, ProviderError, redactSecretText, type ErrorCode } from '@skillopt/contract';
import { abortReason, sleep } from '@skillopt/runtime-kit';
import { displayedSearchUrl } from './search-endpoint.js';
import type { SearchProvider, SearchRequestOptions, SearchResult } from './search-provider.js';
import { parseSearchResponse } from './search-response.js';

/** The built-in provider's name, what `search_provider` says by default. */
export const CUSTOM_HTTP_SEARCH_PROVIDER_ID = 'custom-http';

/** The original's retry policy: four tries, waiting 1 s, 2 s, 4 s between them. */
const DEFAULT_MAX_ATTEMPTS = 4;
const DEFAULT_RETRY_BASE_DELAY_MS = 1000;
/** How much of an error response's body a message quotes. */
const QUOTED_BODY_CHARS = 200;

export interface CustomHttpSearchProviderOptions {
  /** The endpoint (`search_api_url`). */
  url: string;
  /** The token sent as `Authorization: Bearer <token>`; undefined sends no Authorization header. */
  token?: string | undefined;
  /** The variable the token came from, named (never its value) when the endpoint refuses it. */
  tokenVariable?: string | undefined;
  /** Sent as the request's `provider` field, for the endpoint to pick its engine (the original's `duckduckgo`). */
  engine?: string | undefined;
  /** How long one attempt may take (`search_timeout_seconds`). */
  timeoutMs: number;
  /** Tries in all before the failure is reported; default 4. */
  maxAttempts?: number;
  /** The wait before the second try, doubled before each later one; default 1000 ms. */
  retryBaseDelayMs?: number;
}

/** One attempt's failure: whether a later attempt may succeed, and what to report. */
class AttemptFailure extends Error {
  constructor(
    message: string,
    readonly code: ErrorCode,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
  }
}

function failureForStatus(status: number, body: string, tokenVariable: string | undefined): AttemptFailure {
  const quoted = body.trim() === '' ? '' : `: ${body.trim().slice(0, QUOTED_BODY_CHARS)}`;
  const answered = `answered HTTP ${status}${quoted}`;
  if (status === 429) return new AttemptFailure(answered, ERROR_CODES.providerRateLimited, true, status);
  if (status === 408) return new AttemptFailure(answered, ERROR_CODES.providerTimeout, true, status);
  if (status >= 500) return new AttemptFailure(answered, ERROR_CODES.providerUnavailable, true, status);
  if (status === 401 || status === 403) {
    const where = tokenVariable === undefined ? 'it needs a token: set search_auth_env to the variable that holds one' : `check the token in ${tokenVariable}`;
    return new AttemptFailure(`${answered} (${where})`, ERROR_CODES.providerAuthentication, false, status);
  }
  if (status >= 300 && status < 400)
    return new AttemptFailure(`${answered} (a redirect: set search_api_url to the address it redirects to)`, ERROR_CODES.providerBadRequest, false, status);
  return new AttemptFailure(answered, ERROR_CODES.providerBadRequest, false, status);
}

/**
 * The built-in search provider: POSTs `{query, max_num_results, provider?}` as JSON to the
 * configured endpoint, with `Authorization: Bearer <token>` when there is a token (a token that
 * already starts with `Bearer ` or `Basic ` is sent as it is, as the original sent it). Timeouts,
 * connection failures, 408, 429 and 5xx are tried again with exponential backoff; after the last
 * try, and for any other failure at once, it rejects with a `ProviderError` (retryable when the
 * failure was transient, with `attempts` set). The token never appears in an error: messages are
 * scrubbed of it and of anything shaped like a credential.
 */
export function createCustomHttpSearchProvider(options: CustomHttpSearchProviderOptions): SearchProvider {
  const maxAttempts = options.maxAttempts ?? DEFAULT_MAX_ATTEMPTS;
  const baseDelayMs = options.retryBaseDelayMs ?? DEFAULT_RETRY_BASE_DELAY_MS;
  const scrub = (text: string): string => redactSecretText(text, [options.token]);
  const endpoint = displayedSearchUrl(options.url);
  const authorization = options.token === undefined ? undefined : /^(Bearer|Basic)\s/i.test(options.token) ? options.token : `Bearer ${options.token}`;

  async function attempt(query: string, { maxResults, signal }: SearchRequestOptions): Promise<SearchResult[]> {
    const timeout = AbortSignal.timeout(options.timeoutMs);
    const attemptSignal = AbortSignal.any([signal, timeout]);
    const body = JSON.stringify({ query, max_num_results: maxResults, ...(options.engine === undefined ? {} : { provider: options.engine }) });
    let response: Response;
    let text: string;
    try {
      response = await fetch(options.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json', ...(authorization === undefined ? {} : { authorization }) },
        body,
        signal: attemptSignal,
        // A redirect is reported, not followed: the token goes to the configured host only.
        redirect: 'manual',
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw abortReason(signal);
      if (timeout.aborted) throw new AttemptFailure(`did not answer within ${options.timeoutMs} ms`, ERROR_CODES.providerTimeout, true);
      const cause = error instanceof Error ? ((error.cause as Error | undefined)?.message ?? error.message) : String(error);
      throw new AttemptFailure(`could not be reached (${cause})`, ERROR_CODES.providerConnection, true);
    }
    if (!response.ok) throw failureForStatus(response.status, text, options.tokenVariable);
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new AttemptFailure(
        `answered with a body that is not JSON: ${text.trim().slice(0, QUOTED_BODY_CHARS)}`,
        ERROR_CODES.replyMalformed,
        false,
        response.status,
      );
    }
    const outcome = parseSearchResponse(parsed);
    if ('problem' in outcome)
      throw new AttemptFailure(`answered with an unexpected body: ${outcome.problem}`, ERROR_CODES.replyMalformed, false, response.status);
    return outcome.results.slice(0, maxResults);
  }

  return {
    id: CUSTOM_HTTP_SEARCH_PROVIDER_ID,
    async search(query, requestOptions) {
      for (let attemptNumber = 1; ; attemptNumber += 1) {
        try {
          return await attempt(query, requestOptions);
        } catch (error) {
          if (!(error instanceof AttemptFailure)) throw error;
          if (error.retryable && attemptNumber < maxAttempts) {
            await sleep(baseDelayMs * 2 ** (attemptNumber - 1), requestOptions.signal);
            continue;
          }
          const tries = attemptNumber === 1 ? '' : ` (after ${attemptNumber} tries)`;
          throw new ProviderError({
            provider: `officeqa-search:${CUSTOM_HTTP_SEARCH_PROVIDER_ID}`,
            code: error.code,
            retryable: error.retryable,
            message: scrub(`the search endpoint ${endpoint} ${error.message}${tries}`),
            ...(error.status === undefined ? {} : { status: error.status }),
            attempts: attemptNumber,
          });
        }
      }
    },
  };
}
