import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulatorServer } from '@skillopt/backends-sim';
import type { TaskItem } from '@skillopt/contract';

/** One request the CLI sent to the model and what the simulator answered. */
export interface ModelExchange {
  method: string;
  /** The path without its query. */
  path: string;
  /** The request body, parsed when it is JSON. */
  body: unknown;
  status: number;
  responseText: string;
}

export interface LoopbackModel {
  /** `http://127.0.0.1:<port>`, the base URL of CLIs that add `/v1` themselves. */
  origin: string;
  /** `<origin>/v1`. */
  url: string;
  /** Every exchange, in the order the responses ended. */
  exchanges: ModelExchange[];
  close(): Promise<void>;
}

const listen = (server: http.Server): Promise<number> =>
  new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });

/**
 * `sim serve` in process (backends-sim's server, the answer key built from `items`, no noise),
 * behind a recording front on loopback that forwards every request unchanged and keeps each
 * request and response, so a test can see what the CLI asked and what the model answered.
 */
export async function startLoopbackModel(items: readonly TaskItem[]): Promise<LoopbackModel> {
  const simulator = await createSimulatorServer({ items, noise: 0 });
  const exchanges: ModelExchange[] = [];
  const front = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const forwarded = http.request(`${simulator.origin}${request.url ?? '/'}`, { method: request.method, headers: request.headers }, (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        const answerChunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => {
          answerChunks.push(chunk);
          response.write(chunk);
        });
        answer.on('end', () => {
          exchanges.push({
            method: request.method ?? '',
            path: (request.url ?? '/').split('?')[0] ?? '/',
            body: parseJson(requestBody.toString('utf8')),
            status: answer.statusCode ?? 0,
            responseText: Buffer.concat(answerChunks).toString('utf8'),
          });
          response.end();
        });
      });
      forwarded.on('error', (error) => response.destroy(error));
      forwarded.end(requestBody);
    });
  });
  const port = await listen(front);
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/v1`,
    exchanges,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await simulator.close();
    },
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
