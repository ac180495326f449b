import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DenyProxy {
  url: string;
  /** Every attempt to reach a host through the proxy: `CONNECT host:443`, `GET http://host/…`. */
  attempts: string[];
  close(): Promise<void>;
}

/**
 * A loopback HTTP proxy that refuses everything with 403 and records the attempt. Set as a CLI's
 * HTTP(S)_PROXY (with loopback in NO_PROXY), it shows any try to reach a host other than the
 * model on loopback, as upstream-backends.md §2.1 did.
 */
export async function startDenyProxy(): Promise<DenyProxy> {
  const attempts: string[] = [];
  const server = http.createServer((request, response) => {
    attempts.push(`${request.method} ${request.url}`);
    response.writeHead(403, { 'content-type': 'text/plain' }).end('refused by the test deny proxy');
  });
  server.on('connect', (request: http.IncomingMessage, socket) => {
    attempts.push(`CONNECT ${request.url}`);
    socket.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    attempts,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
