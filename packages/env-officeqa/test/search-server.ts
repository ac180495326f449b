import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the loopback search server received. */
export interface ReceivedSearch {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/** What the server answers: a status and a body (an object is sent as JSON, a string as it is). */
export interface SearchServerReply {
  status?: number;
  body?: unknown;
  /** Never answer (the client's timeout has to end the request). */
  hang?: boolean;
}

export interface SearchServer {
  url: string;
  requests: ReceivedSearch[];
  close(): Promise<void>;
}

/** A search endpoint of ours on 127.0.0.1: it records each request and answers with `reply(request, index)`. */
export async function startSearchServer(reply: (request: ReceivedSearch, index: number) => SearchServerReply): Promise<SearchServer> {
  const requests: ReceivedSearch[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // kept as text
      }
      const received: ReceivedSearch = { method: request.method ?? '', path: request.url ?? '', headers: request.headers, body };
      requests.push(received);
      const { status = 200, body: answer = [], hang = false } = reply(received, requests.length - 1);
      if (hang) return;
      const payload = typeof answer === 'string' ? answer : JSON.stringify(answer);
      response.writeHead(status, { 'content-type': typeof answer === 'string' ? 'text/plain' : 'application/json' });
      response.end(payload);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/search_tool/search`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/** Results as the original's endpoint writes them. */
export function resultsFor(query: string): Array<{ title: string; link: string; content: string }> {
  return [
    { title: `Treasury Bulletin on ${query}`, link: 'https://example.org/bulletin?page=3', content: 'Receipts and outlays of the federal government.' },
    { title: 'Second result', link: 'https://example.org/second', content: 'More text.' },
  ];
}
