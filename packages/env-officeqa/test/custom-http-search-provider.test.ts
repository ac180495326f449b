import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { createCustomHttpSearchProvider, parseSearchResponse } from '../src/index';
import { resultsFor, type SearchServer, startSearchServer } from './search-server';

const TOKEN = 'loopback-search-token-4242';
const signal = new AbortController().signal;

let server: SearchServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function caught(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a ProviderError');
}

describe('the custom-http search provider', () => {
  it('POSTs {query, max_num_results, provider} as JSON with a bearer token, and reads {results: [...]}', async () => {
    server = await startSearchServer((request) => ({ body: { results: resultsFor((request.body as { query: string }).query) } }));
    const provider = createCustomHttpSearchProvider({ url: server.url, token: TOKEN, engine: 'duckduckgo', timeoutMs: 5000 });
    const results = await provider.search('federal deficit 1976', { maxResults: 3, signal });
    expect(results).toEqual([
      {
        title: 'Treasury Bulletin on federal deficit 1976',
        url: 'https://example.org/bulletin?page=3',
        snippet: 'Receipts and outlays of the federal government.',
      },
      { title: 'Second result', url: 'https://example.org/second', snippet: 'More text.' },
    ]);
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request).toMatchObject({
      method: 'POST',
      path: '/search_tool/search',
      body: { query: 'federal deficit 1976', max_num_results: 3, provider: 'duckduckgo' },
    });
    expect(request!.headers.authorization).toBe(`Bearer ${TOKEN}`);
    expect(request!.headers['content-type']).toBe('application/json');
  });

  it('sends no provider field without an engine, no Authorization header without a token, and a token with its own scheme as it is', async () => {
    server = await startSearchServer(() => ({ body: [] }));
    await createCustomHttpSearchProvider({ url: server.url, timeoutMs: 5000 }).search('q', { maxResults: 4, signal });
    await createCustomHttpSearchProvider({ url: server.url, token: `Bearer ${TOKEN}`, timeoutMs: 5000 }).search('q', { maxResults: 4, signal });
    expect(server.requests[0]!.body).toEqual({ query: 'q', max_num_results: 4 });
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
    expect(server.requests[1]!.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it('retries 429 and 503 with backoff, then succeeds', async () => {
    server = await startSearchServer((_request, index) =>
      index === 0 ? { status: 429, body: 'slow down' } : index === 1 ? { status: 503 } : { body: resultsFor('q') },
    );
    const provider = createCustomHttpSearchProvider({ url: server.url, token: TOKEN, timeoutMs: 5000, retryBaseDelayMs: 5 });
    await expect(provider.search('q', { maxResults: 4, signal })).resolves.toHaveLength(2);
    expect(server.requests).toHaveLength(3);
  });

  it('after four tries at a persistent 5xx, rejects with a retryable ProviderError marked with its attempts, the token scrubbed', async () => {
    server = await startSearchServer((request) => ({ status: 502, body: `bad gateway for ${String(request.headers.authorization)}` }));
    const provider = createCustomHttpSearchProvider({ url: server.url, token: TOKEN, timeoutMs: 5000, retryBaseDelayMs: 5 });
    const error = await caught(provider.search('q', { maxResults: 4, signal }));
    expect(server.requests).toHaveLength(4);
    expect(error).toMatchObject({ code: ERROR_CODES.providerUnavailable, retryable: true, attempts: 4, status: 502, category: 'provider' });
    expect(error.message).toMatch(/answered HTTP 502: bad gateway for Bearer \[redacted\] \(after 4 tries\)/);
    expect(JSON.stringify(error.toJSON())).not.toContain(TOKEN);
  });

  it('refuses a token at once (401), naming the variable and not the value', async () => {
    server = await startSearchServer(() => ({ status: 401, body: { error: `token ${TOKEN} is unknown` } }));
    const provider = createCustomHttpSearchProvider({ url: server.url, token: TOKEN, tokenVariable: 'MY_SEARCH_TOKEN', timeoutMs: 5000, retryBaseDelayMs: 5 });
    const error = await caught(provider.search('q', { maxResults: 4, signal }));
    expect(server.requests).toHaveLength(1);
    expect(error).toMatchObject({ code: ERROR_CODES.providerAuthentication, retryable: false, status: 401 });
    expect(error.message).toContain('check the token in MY_SEARCH_TOKEN');
    expect(error.message).not.toContain(TOKEN);
  });

  it('retries a connection failure and a timeout as transient', async () => {
    const refused = createCustomHttpSearchProvider({ url: 'http://127.0.0.1:9/search', timeoutMs: 5000, maxAttempts: 2, retryBaseDelayMs: 1 });
    await expect(caught(refused.search('q', { maxResults: 4, signal }))).resolves.toMatchObject({
      code: ERROR_CODES.providerConnection,
      retryable: true,
      attempts: 2,
    });

    server = await startSearchServer(() => ({ hang: true }));
    const slow = createCustomHttpSearchProvider({ url: server.url, timeoutMs: 50, maxAttempts: 2, retryBaseDelayMs: 1 });
    await expect(caught(slow.search('q', { maxResults: 4, signal }))).resolves.toMatchObject({
      code: ERROR_CODES.providerTimeout,
      retryable: true,
      attempts: 2,
    });
    expect(server.requests).toHaveLength(2);
  });

  it('rejects a body that is not a result list at once, saying what it expected', async () => {
    server = await startSearchServer((_request, index) => ({ body: index === 0 ? { answer: 'forty-two' } : 'not json' }));
    const provider = createCustomHttpSearchProvider({ url: server.url, timeoutMs: 5000, retryBaseDelayMs: 1 });
    await expect(caught(provider.search('q', { maxResults: 4, signal }))).resolves.toMatchObject({
      code: ERROR_CODES.replyMalformed,
      retryable: false,
      message: expect.stringContaining('expected a JSON array of results or an object with a "results" array, got an object with keys answer'),
    });
    await expect(caught(provider.search('q', { maxResults: 4, signal }))).resolves.toMatchObject({ message: expect.stringContaining('not JSON') });
    expect(server.requests).toHaveLength(2);
  });

  it('stops waiting at once when the rollout is aborted', async () => {
    server = await startSearchServer(() => ({ status: 503 }));
    const controller = new AbortController();
    const provider = createCustomHttpSearchProvider({ url: server.url, timeoutMs: 5000, retryBaseDelayMs: 60_000 });
    const pending = provider.search('q', { maxResults: 4, signal: controller.signal });
    setTimeout(() => controller.abort(new Error('run stopped')), 50);
    await expect(pending).rejects.toThrow('run stopped');
    expect(server.requests).toHaveLength(1);
  });
});

describe('search response shapes', () => {
  it('accepts a list or {results}, with title/url|link/snippet|content|text, and drops empty entries', () => {
    expect(parseSearchResponse([{ title: 'A', url: 'u', snippet: 's' }, { name: 'B', href: 'h', text: 't' }, {}, 'a bare snippet', 7])).toEqual({
      results: [
        { title: 'A', url: 'u', snippet: 's' },
        { title: 'B', url: 'h', snippet: 't' },
        { title: '', url: '', snippet: 'a bare snippet' },
      ],
    });
    expect(parseSearchResponse({ results: [{ title: 'A', link: 'l', content: 'c' }] })).toEqual({ results: [{ title: 'A', url: 'l', snippet: 'c' }] });
    expect(parseSearchResponse('text')).toEqual({ problem: expect.stringContaining('got string') });
    expect(parseSearchResponse(null)).toEqual({ problem: expect.stringContaining('got null') });
  });
});
