import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SilentModel {
  /** The base URL, with `/v1`. */
  url: string;
  /** Requests received so far. */
  readonly requests: number;
  close(): Promise<void>;
}

/** A loopback server that accepts requests and never answers: a model that hangs, for the timeout tests. */
export async function startSilentModel(): Promise<SilentModel> {
  const state = { requests: 0 };
  const server = http.createServer(() => void (state.requests += 1));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    get requests() {
      return state.requests;
    },
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
