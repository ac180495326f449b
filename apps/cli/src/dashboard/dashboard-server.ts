import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { isLoopbackHost } from '../serving/loopback-host.js';
import { decideAccess } from './access-control.js';
import { answerApiRequest, type ApiContext, type DashboardTiming } from './api-routes.js';
import { ALLOWED_METHODS, ApiError, SECURITY_HEADERS, sendError } from './http-responses.js';
import { createRunListCache } from './run-list-cache.js';
import { watchRuns } from './runs-watcher.js';
import type { EventStream } from './server-sent-events.js';
import { serveStaticFile } from './static-files.js';

export interface DashboardServerOptions {
  /** Absolute: the folder whose runs are served (or one run directory). It may not exist yet. */
  runsFolder: string;
  /** Absolute: the built page (index.html and its assets). */
  staticFolder: string;
  host: string;
  /** 0: any free port. */
  port: number;
  /** Required of every request when set (a bind other than loopback). */
  token?: string;
  timing?: Partial<DashboardTiming>;
}

export interface DashboardServer {
  /** `http://<host>:<port>/`, without the token. */
  url: string;
  host: string;
  port: number;
  /** Ends every event stream and closes the server. */
  close(): Promise<void>;
}

const DEFAULT_TIMING: DashboardTiming = { eventsPollMs: 300, statusPollMs: 1000, keepAliveMs: 15_000, runsPollMs: 1000 };

/**
 * The dashboard's web server (node:http, no framework): the page's static files and the read-only
 * JSON API under /api/ (api-routes.ts). GET and HEAD only. On a loopback bind it answers requests
 * for a loopback Host only (DNS rebinding); on any other, only requests with the token. Listening
 * fails as `listen` does (EADDRINUSE …), for the caller to explain.
 */
export async function startDashboardServer(options: DashboardServerOptions): Promise<DashboardServer> {
  const timing = { ...DEFAULT_TIMING, ...options.timing };
  const streams = new Set<EventStream>();
  const watcher = watchRuns(options.runsFolder, timing.runsPollMs);
  const context: ApiContext = { runsFolder: options.runsFolder, cache: createRunListCache(), watcher, timing, streams };
  const loopback = isLoopbackHost(options.host);
  let boundPort = options.port;

  async function handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    let url: URL;
    try {
      url = new URL(request.url ?? '/', 'http://dashboard.invalid');
    } catch {
      throw new ApiError(400, 'bad-parameter', 'the request URL cannot be read');
    }
    const access = decideAccess(request, url, {
      ...(loopback ? { loopbackPort: boundPort } : {}),
      ...(options.token === undefined ? {} : { token: options.token }),
    });
    if (access.kind === 'refused') throw access.error;
    if (access.kind === 'token-accepted') {
      response.writeHead(303, {
        ...SECURITY_HEADERS,
        Location: access.location,
        'Set-Cookie': access.setCookie,
        'Cache-Control': 'no-store',
        'Content-Length': 0,
      });
      response.end();
      return;
    }
    if (request.method !== 'GET' && request.method !== 'HEAD')
      throw new ApiError(405, 'method-not-allowed', `the dashboard only reads: ${request.method ?? 'this method'} is not allowed (${ALLOWED_METHODS})`);
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) await answerApiRequest(request, response, url, context);
    else await serveStaticFile(options.staticFolder, url.pathname, request, response);
  }

  const server = createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      const answer =
        error instanceof ApiError ? error : new ApiError(500, 'internal', error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error));
      if (response.headersSent) response.destroy();
      else sendError(request, response, answer);
    });
  });

  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(options.port, options.host, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    watcher.close();
    throw error;
  }
  boundPort = (server.address() as AddressInfo).port;
  const urlHost = options.host.includes(':') && !options.host.startsWith('[') ? `[${options.host}]` : options.host;
  return {
    url: `http://${urlHost}:${boundPort}/`,
    host: options.host,
    port: boundPort,
    async close() {
      watcher.close();
      for (const stream of streams) stream.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}
