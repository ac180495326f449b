import type { ServerResponse } from 'node:http';

/**
 * Anthropic's error types and the HTTP status each comes with
 * (https://docs.anthropic.com/en/api/errors).
 */
const ANTHROPIC_ERROR_STATUS = {
  invalid_request_error: 400,
  authentication_error: 401,
  permission_error: 403,
  not_found_error: 404,
  request_too_large: 413,
  rate_limit_error: 429,
  api_error: 500,
  overloaded_error: 529,
} as const;
export type AnthropicErrorType = keyof typeof ANTHROPIC_ERROR_STATUS;

/** A request the simulator answers with an error in Anthropic's shape. */
export class AnthropicApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly type: AnthropicErrorType,
    message: string,
    status?: number,
  ) {
    super(message);
    this.status = status ?? ANTHROPIC_ERROR_STATUS[type];
  }
}

/** `{type: 'error', error: {type, message}, request_id}` with the problem's status. */
export function sendAnthropicError(response: ServerResponse, problem: AnthropicApiProblem, requestId: string): void {
  const text = JSON.stringify({ type: 'error', error: { type: problem.type, message: problem.message }, request_id: requestId });
  response.writeHead(problem.status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), 'request-id': requestId });
  response.end(text);
}

export const invalidRequest = (message: string): AnthropicApiProblem => new AnthropicApiProblem('invalid_request_error', message);
