import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createSimulatorServer } from '@skillopt/backends-sim';
import type { TaskItem } from '@skillopt/contract';

/** One Chat Completions exchange: what the stand-in asked and what the simulator answered. */
export interface ModelExchange {
  request: { messages?: Array<{ role: string; content: unknown }>; tools?: unknown[] };
  response: { usage?: { prompt_tokens?: number; completion_tokens?: number }; choices?: Array<{ message?: { tool_calls?: unknown[] } }> };
}

export interface RecordingModel {
  /** `http://127.0.0.1:<port>/v1`. */
  url: string;
  exchanges: ModelExchange[];
  close(): Promise<void>;
}

/**
 * `sim serve` in process (the answer key built from `items`, no noise) behind a loopback front that
 * forwards every request and keeps it with its answer, so a test can see what reached the model
 * and what the model served.
 */
export async function startRecordingModel(items: readonly TaskItem[]): Promise<RecordingModel> {
  const simulator = await createSimulatorServer({ items, noise: 0 });
  const exchanges: ModelExchange[] = [];
  const front = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks);
      const forwarded = http.request(`${simulator.origin}${request.url ?? '/'}`, { method: request.method, headers: request.headers }, (answer) => {
        const answerChunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => answerChunks.push(chunk));
        answer.on('end', () => {
          const text = Buffer.concat(answerChunks).toString('utf8');
          exchanges.push({ request: JSON.parse(body.toString('utf8')) as ModelExchange['request'], response: JSON.parse(text) as ModelExchange['response'] });
          response.writeHead(answer.statusCode ?? 502, { 'content-type': 'application/json' });
          response.end(text);
        });
      });
      forwarded.on('error', (error) => response.destroy(error));
      forwarded.end(body);
    });
  });
  await new Promise<void>((resolve) => front.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(front.address() as AddressInfo).port}/v1`,
    exchanges,
    close: async () => {
      front.closeAllConnections();
      await new Promise<void>((resolve) => front.close(() => resolve()));
      await simulator.close();
    },
  };
}
