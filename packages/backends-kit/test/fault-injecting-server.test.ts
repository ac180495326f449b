import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  hangingReply,
  malformedBodyReply,
  notFoundReply,
  rateLimitedReply,
  resetReply,
  seededFaultStorm,
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

describe('a seeded fault storm', () => {
  const requestOf = (text: string) => ({ method: 'POST', path: '/v1/chat/completions', headers: {}, text, body: {} });
  const rates = { rateLimited: 0.2, serverError: 0.1, reset: 0.02, hang: 0.01, malformedBody: 0.02 };
  const kindOf = (reply: ReturnType<ReturnType<typeof seededFaultStorm>['choose']>) =>
    reply === undefined ? 'none' : reply.kind === 'json' ? `json ${reply.status ?? 200}` : reply.kind;

  it('gives a request the same fault whatever the order requests arrive in', () => {
    const texts = Array.from({ length: 200 }, (_, index) => JSON.stringify({ item: index }));
    const inOrder = seededFaultStorm({ seed: 7, rates });
    const reversed = seededFaultStorm({ seed: 7, rates });
    const forward = new Map(texts.map((text) => [text, kindOf(inOrder.choose(requestOf(text)))]));
    const backward = new Map([...texts].reverse().map((text) => [text, kindOf(reversed.choose(requestOf(text)))]));
    expect(backward).toEqual(forward);
    // Another seed is another schedule.
    const other = seededFaultStorm({ seed: 8, rates });
    expect(texts.some((text) => kindOf(other.choose(requestOf(text))) !== forward.get(text))).toBe(true);
  });

  it('draws again for a repeated request, at about the rates asked for', () => {
    const storm = seededFaultStorm({ seed: 1, rates, retryAfterMs: 25 });
    const counts = new Map<string, number>();
    const draws = 5_000;
    for (let index = 0; index < draws; index += 1) {
      const kind = kindOf(storm.choose(requestOf('the same request every time')));
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    const share = (kind: string) => (counts.get(kind) ?? 0) / draws;
    expect(share('json 429')).toBeCloseTo(0.2, 1);
    expect(share('json 500')).toBeCloseTo(0.1, 1);
    expect(share('none')).toBeCloseTo(0.65, 1);
    expect(['reset', 'hang', 'text'].every((kind) => share(kind) > 0 && share(kind) < 0.05)).toBe(true);
    const limited = Array.from({ length: 50 }, (_, index) => storm.choose(requestOf(`request ${index}`))).find(
      (reply) => reply?.kind === 'json' && reply.status === 429,
    );
    expect(limited).toMatchObject({ headers: { 'retry-after-ms': '25' } });
  });

  it('refuses rates that do not add up', () => {
    expect(() => seededFaultStorm({ seed: 1, rates: { rateLimited: 0.8, serverError: 0.3 } })).toThrow(/at most 1/);
  });

  it('chooses the replies of a server, which records the reply each request got', async () => {
    server = await startFaultInjectingServer({ choose: () => serverErrorReply(503), fallback: { kind: 'json', body: {} } });
    server.script({ kind: 'json', body: { scripted: true } });
    expect((await post(server.url(), {})).status).toBe(200);
    expect((await post(server.url(), {})).status).toBe(503);
    expect(server.requests.map((request) => kindOf(request.reply))).toEqual(['json 200', 'json 503']);
  });
});
