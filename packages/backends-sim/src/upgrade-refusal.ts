import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';

/**
 * The answer to any protocol upgrade (a WebSocket `GET …/responses`, say): 426 with an OpenAI-shaped
 * error body, and the connection closed. The simulator speaks HTTP only; a client that tries a
 * WebSocket first (Codex does, with its built-in provider) falls back to HTTP with server-sent events.
 */
export function refuseUpgrade(request: IncomingMessage, socket: Duplex): void {
  const path = (request.url ?? '/').split('?')[0] ?? '/';
  const protocol = String(request.headers.upgrade ?? 'an upgrade');
  const body = JSON.stringify({
    error: {
      message: `The SkillOpt simulated server does not speak ${protocol} (asked for on ${path}): use plain HTTP, e.g. POST …/responses with "stream": true for server-sent events.`,
      type: 'invalid_request_error',
      param: null,
      code: 'upgrade_not_supported',
    },
  });
  socket.end(
    ['HTTP/1.1 426 Upgrade Required', 'content-type: application/json', `content-length: ${Buffer.byteLength(body)}`, 'connection: close', '', body].join(
      '\r\n',
    ),
  );
}
