import type { ScriptedReply } from './fault-injecting-server.js';

/**
 * The faults providers show, as replies of the fault-injecting server. Each takes the body a
 * provider would send (its own error format); the defaults are a generic `{ error: { message } }`.
 */

function errorBody(message: string): Record<string, unknown> {
  return { error: { message } };
}

/** A 429 that asks the client to wait `retryAfterSeconds` (as `retry-after`) or `retryAfterMs` (as `retry-after-ms`). */
export function rateLimitedReply(options: { retryAfterSeconds?: number; retryAfterMs?: number; body?: unknown } = {}): ScriptedReply {
  return {
    kind: 'json',
    status: 429,
    body: options.body ?? errorBody('Rate limit reached'),
    headers: {
      ...(options.retryAfterSeconds === undefined ? {} : { 'retry-after': String(options.retryAfterSeconds) }),
      ...(options.retryAfterMs === undefined ? {} : { 'retry-after-ms': String(options.retryAfterMs) }),
    },
  };
}

/** A 5xx: the server failed or is overloaded (500 by default; 502, 503, 529 …). */
export function serverErrorReply(status = 500, body: unknown = errorBody('The server had an error')): ScriptedReply {
  return { kind: 'json', status, body };
}

/** A 401: the key was refused. */
export function unauthorizedReply(body: unknown = errorBody('Incorrect API key provided')): ScriptedReply {
  return { kind: 'json', status: 401, body };
}

/** A 404: no such model (or deployment, or path). */
export function notFoundReply(body: unknown = errorBody('The model does not exist')): ScriptedReply {
  return { kind: 'json', status: 404, body };
}

/** A 200 whose body is not valid JSON (cut off by default). */
export function malformedBodyReply(text = '{"id": "reply-1", "choices": ['): ScriptedReply {
  return { kind: 'text', body: text };
}

/** An answer that never comes. */
export function hangingReply(): ScriptedReply {
  return { kind: 'hang' };
}

/** A connection reset before any answer. */
export function resetReply(): ScriptedReply {
  return { kind: 'reset' };
}
