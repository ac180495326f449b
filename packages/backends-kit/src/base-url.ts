import { redactSecretText } from '@skillopt/contract';
import { backendConfigError } from './backend-config.js';

/** A base URL as an SDK client is given it. */
export interface BaseUrl {
  /** Scheme, host and path, without trailing slashes, query or fragment: the SDK appends its paths to it. */
  url: string;
  /**
   * The query of the configured URL (a gateway's `?api-key=…`), for the client to send with every
   * request. Its values may be secrets: it belongs with the credentials, never in a message.
   */
  query: Record<string, string>;
}

/**
 * A backend's base URL read for its SDK client, or a `config-invalid` error naming `source` (the
 * key or variable it came from):
 * - a query is taken off and returned apart, since the SDKs append their paths to the base URL as
 *   text, which would put `/chat/completions` inside the query and send the request to the wrong path;
 * - a user name or password is refused: fetch will not send a request to a URL that carries them,
 *   so every call would fail, and each failure would print the URL with its password.
 * The messages show the URL with its credentials cut out.
 */
export function readBaseUrl(backendId: string, source: string, text: string): BaseUrl {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    throw backendConfigError(backendId, `${source} is not a URL (${redactSecretText(text)}): give one such as http://127.0.0.1:8787`, { source });
  }
  if (parsed.username !== '' || parsed.password !== '')
    throw backendConfigError(
      backendId,
      `${source} carries a user name or password (${parsed.protocol}//[redacted]@${parsed.host}${parsed.pathname}): requests cannot be sent to such a URL; remove them, and give the API key through the environment variable the backend reads`,
      { source },
    );
  return { url: `${parsed.protocol}//${parsed.host}${parsed.pathname}`.replace(/\/+$/, ''), query: Object.fromEntries(parsed.searchParams) };
}
