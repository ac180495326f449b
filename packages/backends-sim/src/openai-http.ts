import type { IncomingMessage, ServerResponse } from 'node:http';
import { didYouMean } from './model-suggestion.js';

/** A request the OpenAI-shaped routes answer with an error body `{error: {message, type, param, code}}`. */
export class HttpProblem extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
    readonly code: string | null,
    readonly param: string | null = null,
  ) {
    super(message);
  }
}

export const badRequest = (message: string, param: string | null = null): HttpProblem => new HttpProblem(400, message, 'invalid_request_error', null, param);

export function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export function sendProblem(response: ServerResponse, problem: HttpProblem): void {
  sendJson(response, problem.status, { error: { message: problem.message, type: problem.type, param: problem.param, code: problem.code } });
}

export async function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    const buffer = chunk as Buffer;
    size += buffer.length;
    if (size > maxBytes) throw new HttpProblem(413, `request body larger than ${maxBytes} bytes`, 'invalid_request_error', 'request_too_large');
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The body as a JSON object, or a 400 that says so. */
export async function readJsonObject(request: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const raw = await readBody(request, maxBytes);
  try {
    const parsed: unknown = JSON.parse(raw);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw new HttpProblem(400, 'We could not parse the JSON body of your request: it must be a JSON object.', 'invalid_request_error', null);
}

/** The 404 of an OpenAI-shaped route for a model id the simulator does not serve, naming the ids it does. */
export function modelNotFound(modelId: string, served: Iterable<string>): HttpProblem {
  const ids = [...served];
  return new HttpProblem(
    404,
    `The model \`${modelId}\` does not exist on this simulated server${didYouMean(modelId, ids)}; it serves ${ids.join(' and ')} (simulated models).`,
    'invalid_request_error',
    'model_not_found',
    'model',
  );
}
