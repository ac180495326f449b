import type { IncomingMessage } from 'node:http';
import { AnthropicApiProblem, invalidRequest } from './anthropic-errors.js';

/** A Messages API request body as a JSON object, or the error the real API gives for it. */
export async function readJsonBody(request: IncomingMessage, maxBytes: number): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) throw new AnthropicApiProblem('request_too_large', `Request exceeds the maximum allowed number of bytes (${maxBytes}).`);
    chunks.push(chunk as Buffer);
  }
  try {
    const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
  } catch {
    // answered below
  }
  throw invalidRequest('There was an error parsing the body of your request: it must be a JSON object.');
}
