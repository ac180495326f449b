import type { IncomingMessage, ServerResponse } from 'node:http';
import { SECURITY_HEADERS } from './http-responses.js';

/** One open `text/event-stream` response. */
export interface EventStream {
  /** One event; `id` is what the browser sends back as Last-Event-ID when it reconnects. */
  send(event: string, data: unknown, id?: number): void;
  /** True once the client went away or the stream was ended. */
  readonly closed: boolean;
  /** Called once, when the stream closes for any reason. */
  onClose(listener: () => void): void;
  end(): void;
}

/**
 * Starts a server-sent events response: a comment every `keepAliveMs` keeps proxies and the
 * browser from timing the idle connection out. A HEAD request gets the headers and no stream.
 */
export function openEventStream(request: IncomingMessage, response: ServerResponse, keepAliveMs: number): EventStream {
  response.writeHead(200, {
    ...SECURITY_HEADERS,
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-store',
    Connection: 'keep-alive',
    // Tells a buffering reverse proxy (nginx) to pass each event on as it comes.
    'X-Accel-Buffering': 'no',
  });
  const closeListeners: Array<() => void> = [];
  let closed = false;
  const keepAlive = setInterval(() => write(': keep-alive\n\n'), keepAliveMs);
  keepAlive.unref();

  function close(): void {
    if (closed) return;
    closed = true;
    clearInterval(keepAlive);
    for (const listener of closeListeners) listener();
  }
  function write(text: string): void {
    if (!closed) response.write(text);
  }

  response.on('close', close);
  if (request.method === 'HEAD') {
    response.end();
    close();
  } else response.flushHeaders();

  return {
    send(event, data, id) {
      // JSON.stringify escapes every newline, so the data is one `data:` line.
      write(`${id === undefined ? '' : `id: ${id}\n`}event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
    },
    get closed() {
      return closed;
    },
    onClose(listener) {
      if (closed) listener();
      else closeListeners.push(listener);
    },
    end() {
      close();
      response.end();
    },
  };
}
