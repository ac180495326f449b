import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hangingReply,
  malformedBodyReply,
  notFoundReply,
  rateLimitedReply,
  resetReply,
  serverErrorReply,
  startFaultInjectingServer,
  unauthorizedReply,
  type FaultInjectingServer,
} from '../src/testing';

let server: FaultInjectingServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const post = (url: string, body: unknown, signal?: AbortSignal) =>
  fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), ...(signal ? { signal } : {}) });

describe('the fault-injecting server', () => {
  it('answers from its script in order, then from its fallback, and records every request', async () => {
    server = await startFaultInjectingServer({ fallback: { kind: 'json', body: { answer: 'fallback' } }, defaultHeaders: { 'request-id': 'req_1' } });
    server.script({ kind: 'json', status: 201, body: { answer: 'first' }, headers: { 'x-extra': 'yes' } });
    const first = await post(server.url('/v1/chat/completions'), { model: 'm', messages: [] });
    expect(first.status).toBe(201);
    expect(first.headers.get('request-id')).toBe('req_1');
    expect(first.headers.get('x-extra')).toBe('yes');
    expect(await first.json()).toEqual({ answer: 'first' });
    expect(await (await post(server.url('/v1/chat/completions'), { model: 'm' })).json()).toEqual({ answer: 'fallback' });
    expect(server.requests.map((request) => [request.method, request.path, request.body.model])).toEqual([
      ['POST', '/v1/chat/completions', 'm'],
      ['POST', '/v1/chat/completions', 'm'],
    ]);
    expect(server.scriptedRepliesLeft()).toBe(0);
  });

  it('says so with a non-retryable 400 when a test scripted too few replies and gave no fallback', async () => {
    server = await startFaultInjectingServer();
    const response = await post(server.url(), {});
    expect(response.status).toBe(400);
    expect(JSON.stringify(await response.json())).toContain('no scripted reply left');
  });

  it('sends the faults providers show: 429 with retry-after, 5xx, 401, 404 and a malformed body', async () => {
    server = await startFaultInjectingServer();
    server.script(
      rateLimitedReply({ retryAfterSeconds: 2, retryAfterMs: 1500 }),
      serverErrorReply(503),
      unauthorizedReply(),
      notFoundReply(),
      malformedBodyReply(),
    );
    const limited = await post(server.url(), {});
    expect([limited.status, limited.headers.get('retry-after'), limited.headers.get('retry-after-ms')]).toEqual([429, '2', '1500']);
    expect((await post(server.url(), {})).status).toBe(503);
    expect((await post(server.url(), {})).status).toBe(401);
    expect((await post(server.url(), {})).status).toBe(404);
    const malformed = await post(server.url(), {});
    expect(malformed.status).toBe(200);
    // By message: undici's parser throws a SyntaxError of another realm than the test's.
    await expect(malformed.json()).rejects.toThrow(/JSON/);
  });

  it('hangs until the client gives up, and resets a connection without an answer', async () => {
    server = await startFaultInjectingServer();
    server.script(hangingReply(), resetReply());
    await expect(post(server.url(), {}, AbortSignal.timeout(200))).rejects.toThrow();
    await expect(post(server.url(), {})).rejects.toThrow(/fetch failed/);
    expect(server.requests).toHaveLength(2);
  });

  it('delays a reply, and counts the most requests it was answering at once', async () => {
    server = await startFaultInjectingServer({ fallback: { kind: 'json', body: {}, delayMs: 50 } });
    const started = Date.now();
    await Promise.all([post(server.url(), {}), post(server.url(), {}), post(server.url(), {})]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    expect(server.peakConcurrency()).toBe(3);
  });

  describe('as a proxy', () => {
    let upstream: Server;
    let upstreamOrigin: string;
    beforeEach(async () => {
      upstream = createServer((request, response) => {
        let text = '';
        request.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
        request.on('end', () => {
          response.writeHead(200, { 'content-type': 'application/json', 'x-upstream': 'yes' });
          response.end(JSON.stringify({ echoed: JSON.parse(text), path: request.url, authorization: request.headers.authorization }));
        });
      });
      await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', () => resolve()));
      upstreamOrigin = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    });
    afterEach(async () => {
      await new Promise<void>((resolve) => upstream.close(() => resolve()));
    });

    it('passes what the script does not intercept to the upstream, headers and body included', async () => {
      server = await startFaultInjectingServer({ upstream: upstreamOrigin });
      server.script(rateLimitedReply({ retryAfterSeconds: 1 }));
      expect((await post(server.url('/v1/chat/completions'), { n: 1 })).status).toBe(429);
      const passed = await fetch(server.url('/v1/chat/completions?x=1'), {
        method: 'POST',
        headers: { authorization: 'Bearer sk-test', 'content-type': 'application/json' },
        body: JSON.stringify({ n: 2 }),
      });
      expect(passed.headers.get('x-upstream')).toBe('yes');
      expect(await passed.json()).toEqual({ echoed: { n: 2 }, path: '/v1/chat/completions?x=1', authorization: 'Bearer sk-test' });
      expect(server.requests).toHaveLength(2);
    });

    it('answers 502 when the upstream cannot be reached', async () => {
      server = await startFaultInjectingServer({ upstream: 'http://127.0.0.1:1' });
      const response = await post(server.url(), {});
      expect(response.status).toBe(502);
    });
  });
});
