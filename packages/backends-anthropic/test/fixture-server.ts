import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback stand-in for the Anthropic API (node:http on 127.0.0.1, a free port) that answers
 * from a script, following Anthropic's documented formats, with faults on demand.
 */
export type ScriptedReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'raw'; status?: number; body: string; contentType?: string }
  /** Never answers: the client's timeout has to end it. */
  | { kind: 'hang' }
  /** Reads the request, then destroys the connection without an answer. */
  | { kind: 'reset' };

export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FixtureServer {
  /** The origin to use as base_url (the SDK adds /v1/messages). */
  baseUrl: string;
  requests: RecordedRequest[];
  /** The most requests that were in flight at once. */
  readonly maxInFlight: number;
  close(): Promise<void>;
}

/** Replies are taken from `script` in order; once it runs out, `fallback` answers every request. */
export async function startFixtureServer(script: ScriptedReply[], fallback: ScriptedReply = { kind: 'json', body: messageReply() }, options: { delayMs?: number } = {}): Promise<FixtureServer> {
  const queue = [...script];
  const requests: RecordedRequest[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      response.on('close', () => inFlight--);
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({ method: request.method ?? '', path: request.url ?? '', headers: request.headers, body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>) });
      const reply = queue.shift() ?? fallback;
      const send = (): void => {
        switch (reply.kind) {
          case 'hang':
            return;
          case 'reset':
            request.socket.destroy();
            return;
          case 'raw':
            response.writeHead(reply.status ?? 200, { 'content-type': reply.contentType ?? 'application/json', 'request-id': 'req_fixture' });
            response.end(reply.body);
            return;
          case 'json': {
            const body = JSON.stringify(reply.body);
            response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', 'request-id': 'req_fixture', ...reply.headers });
            response.end(body);
          }
        }
      };
      if (options.delayMs) setTimeout(send, options.delayMs);
      else send();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    get maxInFlight() {
      return maxInFlight;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ReplyOptions {
  text?: string;
  content?: unknown[];
  stopReason?: string;
  model?: string;
  usage?: Record<string, unknown>;
}

/** A non-streamed Messages API reply as Anthropic documents it. */
export function messageReply(options: ReplyOptions = {}): Record<string, unknown> {
  return {
    id: 'msg_01FixtureReply',
    type: 'message',
    role: 'assistant',
    model: options.model ?? 'claude-sonnet-4-6',
    content: options.content ?? [{ type: 'text', text: options.text ?? 'The answer is <answer>42</answer>.', citations: null }],
    stop_reason: options.stopReason ?? 'end_turn',
    stop_sequence: null,
    usage: options.usage ?? { input_tokens: 25, cache_creation_input_tokens: 0, cache_read_input_tokens: 0, output_tokens: 12, service_tier: 'standard' },
  };
}

/** An error body as Anthropic documents it. */
export function errorReply(status: number, type: string, message: string, headers: Record<string, string> = {}): ScriptedReply {
  return { kind: 'json', status, body: { type: 'error', error: { type, message }, request_id: 'req_fixture' }, headers };
}
