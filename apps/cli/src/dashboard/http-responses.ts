import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';

/** On every response: no type sniffing, no referrer leaving the page, and a page that loads and connects to this server only. */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'no-referrer',
  'Content-Security-Policy': "default-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'",
} as const;

/** The methods the dashboard answers: it only reads. */
export const ALLOWED_METHODS = 'GET, HEAD';

/** The `code` of an API error body, one per status (docs/dashboard.md). */
export type ApiErrorCode = 'bad-parameter' | 'token-required' | 'host-refused' | 'not-found' | 'method-not-allowed' | 'internal';

/** A request the dashboard answers with an error: thrown by a route, sent by the server. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 405 | 500,
    readonly code: ApiErrorCode,
    message: string,
  ) {
    super(message);
  }
}

/** A whole response: the security headers, the length, and the body unless the request was HEAD. */
export function sendBody(request: IncomingMessage, response: ServerResponse, status: number, headers: OutgoingHttpHeaders, body: Buffer | string): void {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  response.writeHead(status, { ...SECURITY_HEADERS, ...headers, 'Content-Length': bytes.length });
  response.end(request.method === 'HEAD' ? undefined : bytes);
}

/** A JSON response, never cached: run files change under it. */
export function sendJson(request: IncomingMessage, response: ServerResponse, status: number, value: unknown, headers: OutgoingHttpHeaders = {}): void {
  sendBody(request, response, status, { 'Content-Type': 'application/json; charset=utf-8', 'Cache-Control': 'no-store', ...headers }, JSON.stringify(value));
}

/** `{ "error": { code, message } }` with the error's status (405 says which methods are allowed). */
export function sendError(request: IncomingMessage, response: ServerResponse, error: ApiError): void {
  sendJson(request, response, error.status, { error: { code: error.code, message: error.message } }, error.status === 405 ? { Allow: ALLOWED_METHODS } : {});
}
