import { createServer, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A loopback HTTP server (127.0.0.1, a free port) for backend tests: it answers from a script,
 * with the faults real providers show (429 with `retry-after`, 5xx, answers that never come, reset
 * connections, bodies that are not JSON, 401, 404), and records what it was sent. Given an
 * `upstream` (`skillopt sim serve`, say) it is a proxy: requests the script does not intercept go
 * through to it, so faults can be injected in front of a real server. A `choose` function picks
 * the reply of each request the script leaves to it (a seeded fault storm, say).
 */

export type ScriptedReply =
  | { kind: 'json'; status?: number; body: unknown; headers?: Readonly<Record<string, string>>; delayMs?: number }
  /** A body sent as it is: a malformed or truncated JSON body, an HTML error page. */
  | { kind: 'text'; status?: number; body: string; headers?: Readonly<Record<string, string>>; delayMs?: number }
  /** Never answers, until the client gives up or the server closes. */
  | { kind: 'hang' }
  /** Reads the request, then destroys the connection without an answer (the client sees a reset). */
  | { kind: 'reset'; delayMs?: number }
  /** Passes the request on to the upstream and its answer back. */
  | { kind: 'forward'; delayMs?: number };

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: IncomingHttpHeaders;
  /** The body as sent. */
  text: string;
  /** The body parsed as JSON (`{}` when empty, `{ unparsed: text }` when it is not JSON). */
  body: Record<string, unknown>;
  /** The reply the server chose for it. */
  reply: ScriptedReply;
}

export interface FaultInjectingServerOptions {
  /**
   * Answers every request once the script has run out. Default: `forward` with an upstream, else a
   * 400 that says no scripted reply was left (not retryable, so a test that under-scripted fails
   * at once and says why).
   */
  fallback?: ScriptedReply;
  /** The origin of a server to pass requests to, e.g. `http://127.0.0.1:8787`. */
  upstream?: string;
  /**
   * Chooses the reply of a request the script does not answer, before the fallback does (which
   * answers when it returns undefined): a fault schedule such as `seededFaultStorm`'s.
   */
  choose?: (request: Omit<RecordedRequest, 'reply'>) => ScriptedReply | undefined;
  /** Headers of every scripted answer (a provider's `request-id`, say); a reply's own win. */
  defaultHeaders?: Readonly<Record<string, string>>;
}

export interface FaultInjectingServer {
  /** `http://127.0.0.1:<port>`. */
  readonly origin: string;
  /** The origin joined with `path`: `url('/v1')` is an OpenAI base URL. */
  url(path?: string): string;
  /** Every request received, in order of arrival. */
  readonly requests: RecordedRequest[];
  /** The most requests that were being answered at once. */
  peakConcurrency(): number;
  /** Queues replies, used in order, one per request; when none is left, the fallback answers. */
  script(...replies: ScriptedReply[]): void;
  /** How many scripted replies are still unused. */
  scriptedRepliesLeft(): number;
  /** Stops listening and destroys every open connection (hanging ones included). */
  close(): Promise<void>;
}

const NOTHING_SCRIPTED: ScriptedReply = {
  kind: 'json',
  status: 400,
  body: {
    error: {
      type: 'test_script_exhausted',
      message: 'the fault-injecting server has no scripted reply left for this request: script more replies or give a fallback',
    },
  },
};

export async function startFaultInjectingServer(options: FaultInjectingServerOptions = {}): Promise<FaultInjectingServer> {
  const queue: ScriptedReply[] = [];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const fallback = options.fallback ?? (options.upstream ? { kind: 'forward' } : NOTHING_SCRIPTED);
  let inFlight = 0;
  let peak = 0;

  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const received = recordOf(request, body);
      const reply = queue.shift() ?? options.choose?.(received) ?? fallback;
      requests.push({ ...received, reply });
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      response.on('close', () => {
        inFlight -= 1;
      });
      const delayMs = reply.kind === 'hang' ? 0 : (reply.delayMs ?? 0);
      const send = (): void => answer(reply, request, body, response);
      if (delayMs > 0) setTimeout(send, delayMs);
      else send();
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  function answer(reply: ScriptedReply, request: IncomingMessage, body: Buffer, response: ServerResponse): void {
    if (response.destroyed) return;
    switch (reply.kind) {
      case 'json':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...options.defaultHeaders, ...reply.headers });
        response.end(JSON.stringify(reply.body));
        return;
      case 'text':
        response.writeHead(reply.status ?? 200, { 'content-type': 'application/json', ...options.defaultHeaders, ...reply.headers });
        response.end(reply.body);
        return;
      case 'hang':
        return;
      case 'reset':
        request.socket.destroy();
        return;
      case 'forward':
        forward(request, body, response);
        return;
    }
  }

  function forward(request: IncomingMessage, body: Buffer, response: ServerResponse): void {
    if (options.upstream === undefined) {
      response.writeHead(500, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: 'a forward reply needs the server to have an upstream' } }));
      return;
    }
    const target = new URL(request.url ?? '/', options.upstream);
    const { host: _host, connection: _connection, ...headers } = request.headers;
    const outgoing = httpRequest(
      target,
      { method: request.method ?? 'GET', headers: { ...headers, 'content-length': String(body.length) } },
      (upstreamResponse) => {
        response.writeHead(upstreamResponse.statusCode ?? 502, upstreamResponse.headers);
        upstreamResponse.pipe(response);
      },
    );
    outgoing.on('error', (error) => {
      if (response.headersSent) {
        response.destroy();
        return;
      }
      response.writeHead(502, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ error: { message: `the upstream ${options.upstream} could not be reached: ${error.message}` } }));
    });
    outgoing.end(body);
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: (path = '') => `${origin}${path}`,
    requests,
    peakConcurrency: () => peak,
    script: (...replies) => {
      queue.push(...replies);
    },
    scriptedRepliesLeft: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

function recordOf(request: IncomingMessage, body: Buffer): Omit<RecordedRequest, 'reply'> {
  const text = body.toString('utf8');
  let parsed: Record<string, unknown>;
  try {
    const value: unknown = text === '' ? {} : JSON.parse(text);
    parsed = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : { unparsed: text };
  } catch {
    parsed = { unparsed: text };
  }
  return { method: request.method ?? '', path: request.url ?? '', headers: request.headers, text, body: parsed };
}
