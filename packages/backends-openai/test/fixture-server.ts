import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback HTTP server (127.0.0.1, a free port) that answers Chat Completions requests from a
 * script, in OpenAI's documented formats, with the faults a real provider shows: rate limits with
 * retry-after, 5xx, replies that never come, reset connections, bodies that are not JSON.
 */

export type ScriptedReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Record<string, string> }
  | { kind: 'raw'; status?: number; body: string; headers?: Record<string, string> }
  /** Never answers (until the client gives up or the server closes). */
  | { kind: 'hang' }
  /** Destroys the socket without an answer (the client sees a reset connection). */
  | { kind: 'destroy' };

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  url: string;
  headers: IncomingHttpHeaders;
  body: Record<string, unknown>;
}

export interface FixtureServer {
  /** The OpenAI base URL, `http://127.0.0.1:<port>/v1`. */
  url: string;
  origin: string;
  requests: RecordedRequest[];
  /** The most requests that were in flight at once. */
  peakConcurrency(): number;
  /** Queues replies, answered in order; when the queue is empty, `fallback` answers. */
  script(...replies: ScriptedReply[]): void;
  close(): Promise<void>;
}

export async function startFixtureServer(fallback: ScriptedReply = { kind: 'json', body: completion('fallback') }): Promise<FixtureServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  let inFlight = 0;
  let peak = 0;

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: Record<string, unknown> = {};
      try {
        body = text === '' ? {} : (JSON.parse(text) as Record<string, unknown>);
      } catch {
        body = { unparsed: text };
      }
      requests.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body });
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      const done = (): void => {
        inFlight -= 1;
      };
      response.on('close', done);
      answer(queue.shift() ?? fallback, response);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(reply: ScriptedReply, response: ServerResponse): void {
    switch (reply.kind) {
      case 'json': {
        const text = JSON.stringify(reply.body);
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(text);
        return;
      }
      case 'raw':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...reply.headers });
        response.end(reply.body);
        return;
      case 'hang':
        return;
      case 'destroy':
        response.socket?.destroy();
        return;
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/v1`,
    origin,
    requests,
    peakConcurrency: () => peak,
    script: (...replies) => queue.push(...replies),
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

export interface CompletionOptions {
  model?: string;
  finishReason?: string;
  refusal?: string | null;
  toolCalls?: Array<{ id: string; name: string; arguments: string }>;
  usage?: {
    prompt_tokens: number;
    completion_tokens: number;
    total_tokens?: number;
    prompt_tokens_details?: { cached_tokens: number };
    completion_tokens_details?: { reasoning_tokens: number };
  } | null;
}

/** A non-streamed chat completion as OpenAI documents it (usage with cached and reasoning tokens). */
export function completion(content: string | null, options: CompletionOptions = {}): Record<string, unknown> {
  const usage =
    options.usage === undefined
      ? {
          prompt_tokens: 120,
          completion_tokens: 30,
          total_tokens: 150,
          prompt_tokens_details: { cached_tokens: 64, audio_tokens: 0 },
          completion_tokens_details: { reasoning_tokens: 12, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
        }
      : options.usage;
  return {
    id: 'chatcmpl-fixture-1',
    object: 'chat.completion',
    created: 1_764_000_000,
    model: options.model ?? 'gpt-5-mini-2025-08-07',
    system_fingerprint: 'fp_fixture',
    service_tier: 'default',
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content,
          refusal: options.refusal ?? null,
          annotations: [],
          ...(options.toolCalls
            ? { tool_calls: options.toolCalls.map((call) => ({ id: call.id, type: 'function', function: { name: call.name, arguments: call.arguments } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: options.finishReason ?? (options.toolCalls ? 'tool_calls' : 'stop'),
      },
    ],
    ...(usage === null ? {} : { usage }),
  };
}

/** An OpenAI error body. */
export function errorBody(message: string, type: string, code: string | null = null): Record<string, unknown> {
  return { error: { message, type, param: null, code } };
}
