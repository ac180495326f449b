import { ProviderError, SkillOptError, type GenerateRequest } from '@skillopt/contract';
import { createBackend, type OpenAiBackendConfigInput } from '../src/index';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FaultInjectingServer } from '@skillopt/backends-kit/testing';
import { completion, errorBody, startOpenAiServer } from './openai-replies';

/*
 * The real `openai` SDK against a loopback server that answers in OpenAI's documented formats,
 * with the faults real providers show. No network but 127.0.0.1.
 */

const KEY = 'sk-test-0123456789abcdefghijklmnop';
let server: FaultInjectingServer;
let waits: number[];

beforeEach(async () => {
  server = await startOpenAiServer();
  waits = [];
});
afterEach(async () => {
  await server.close();
});

function modelFor(config: OpenAiBackendConfigInput = {}, modelId = 'gpt-5-mini') {
  const backend = createBackend(
    { preset: 'openai', base_url: server.url('/v1'), ...config },
    {
      environment: { OPENAI_API_KEY: KEY },
      // Record the waits instead of sleeping them.
      sleep: async (milliseconds) => {
        waits.push(milliseconds);
      },
      random: () => 0.5,
    },
  );
  return backend.createChatModel({ role: 'target', modelId });
}

const ask: GenerateRequest = { messages: [{ role: 'user', content: 'What is 2 + 2?' }], purpose: 'rollout' };

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

describe('a successful call', () => {
  it('sends a Chat Completions request and reads text, usage (cached and reasoning tokens) and metadata', async () => {
    server.script({ kind: 'json', body: completion('4'), headers: { 'x-request-id': 'req_123' } });
    const result = await modelFor().generate({ ...ask, maxOutputTokens: 500, reasoningEffort: 'none' });
    expect(result).toEqual({
      text: '4',
      usage: { inputTokens: 120, outputTokens: 30, cachedInputTokens: 64, reasoningTokens: 12 },
      finishReason: 'stop',
      providerMetadata: {
        preset: 'openai',
        responseId: 'chatcmpl-fixture-1',
        servedModel: 'gpt-5-mini-2025-08-07',
        systemFingerprint: 'fp_fixture',
        requestId: 'req_123',
      },
    });
    expect(server.requests).toHaveLength(1);
    const [request] = server.requests;
    expect(request?.method).toBe('POST');
    expect(request?.path).toBe('/v1/chat/completions');
    expect(request?.headers.authorization).toBe(`Bearer ${KEY}`);
    // A reasoning model: max_completion_tokens and an effort it accepts (gpt-5-mini takes minimal, not none); no temperature.
    expect(request?.body).toEqual({
      model: 'gpt-5-mini',
      messages: [{ role: 'user', content: 'What is 2 + 2?' }],
      max_completion_tokens: 500,
      reasoning_effort: 'minimal',
    });
  });

  it('estimates usage, marked as such, when the server reports none', async () => {
    server.script({ kind: 'json', body: completion('four', { usage: null }) });
    const result = await modelFor().generate(ask);
    expect(result.usage).toEqual({ inputTokens: 4, outputTokens: 1, estimated: true });
  });

  it('returns tool calls with parsed arguments, and sends tools and tool results in the API format', async () => {
    server.script({
      kind: 'json',
      body: completion(null, { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"query":"capital of France"}' }] }),
    });
    const result = await modelFor({}, 'gpt-4.1').generate({
      messages: [
        { role: 'system', content: 'Use tools.' },
        { role: 'user', content: 'Capital of France?' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'call_0', toolName: 'lookup', input: { query: 'France' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'call_0', toolName: 'lookup', output: 'France: Paris' }] },
      ],
      tools: [{ name: 'lookup', description: 'Looks a fact up.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }],
      temperature: 0,
      purpose: 'rollout',
    });
    expect(result.finishReason).toBe('tool-calls');
    expect(result.text).toBe('');
    expect(result.toolCalls).toEqual([{ toolCallId: 'call_1', toolName: 'lookup', input: { query: 'capital of France' } }]);
    const body = server.requests[0]?.body;
    expect(body?.temperature).toBe(0);
    expect(body?.tools).toEqual([
      {
        type: 'function',
        function: { name: 'lookup', description: 'Looks a fact up.', parameters: { type: 'object', properties: { query: { type: 'string' } } } },
      },
    ]);
    expect(body?.messages).toEqual([
      { role: 'system', content: 'Use tools.' },
      { role: 'user', content: 'Capital of France?' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'lookup', arguments: '{"query":"France"}' } }] },
      { role: 'tool', tool_call_id: 'call_0', content: 'France: Paris' },
    ]);
  });
});

describe('retries of transport failures (usage counted once)', () => {
  it('waits what a 429 retry-after asks, then succeeds', async () => {
    server.script(
      { kind: 'json', status: 429, body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'), headers: { 'retry-after': '2' } },
      { kind: 'json', body: completion('4') },
    );
    const result = await modelFor().generate(ask);
    expect(result.text).toBe('4');
    expect(waits).toEqual([2000]);
    expect(server.requests).toHaveLength(2);
    expect(result.usage.inputTokens).toBe(120);
  });

  it('prefers retry-after-ms, which OpenAI and Azure send for sub-second waits', async () => {
    server.script(
      { kind: 'json', status: 429, body: errorBody('slow down', 'requests'), headers: { 'retry-after-ms': '250', 'retry-after': '1' } },
      { kind: 'json', body: completion('4') },
    );
    await modelFor().generate(ask);
    expect(waits).toEqual([250]);
  });

  it('retries 500s with backoff and returns the one successful usage', async () => {
    server.script(
      { kind: 'json', status: 500, body: errorBody('The server had an error', 'server_error') },
      { kind: 'json', status: 503, body: errorBody('overloaded', 'server_error') },
      { kind: 'json', body: completion('4', { usage: { prompt_tokens: 10, completion_tokens: 2, total_tokens: 12 } }) },
    );
    const result = await modelFor().generate(ask);
    expect(server.requests).toHaveLength(3);
    expect(result.usage).toEqual({ inputTokens: 10, outputTokens: 2 });
    // Full jitter at random() = 0.5: half of 500 ms, then half of 1000 ms.
    expect(waits).toEqual([250, 500]);
  });

  it('gives up after max_attempts with the last error, retryable for core', async () => {
    server.script(
      { kind: 'json', status: 502, body: errorBody('bad gateway', 'server_error') },
      { kind: 'json', status: 502, body: errorBody('bad gateway', 'server_error') },
    );
    const error = await failureOf(modelFor({ max_attempts: 2 }).generate(ask));
    expect(error.code).toBe('provider-unavailable');
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(502);
    expect(server.requests).toHaveLength(2);
  });

  it('waits out more 429s than max_attempts: a rate limit does not use up an attempt', async () => {
    const rateLimited = {
      kind: 'json' as const,
      status: 429,
      body: errorBody('Rate limit reached', 'requests', 'rate_limit_exceeded'),
      headers: { 'retry-after-ms': '20' },
    };
    server.script(rateLimited, rateLimited, { kind: 'json', status: 500, body: errorBody('The server had an error', 'server_error') }, rateLimited, {
      kind: 'json',
      body: completion('4'),
    });
    const result = await modelFor({ max_attempts: 2 }).generate(ask);
    expect(result.text).toBe('4');
    expect(server.requests).toHaveLength(5);
    // Three waits the server asked for, and the backoff of a first failure (half of 500 ms at random() = 0.5):
    // the 429s before it do not stretch it.
    expect(waits).toEqual([20, 20, 250, 20]);
  });

  it('times out a reply that never comes: a retryable provider-timeout after every attempt timed out', async () => {
    server.script({ kind: 'hang' }, { kind: 'hang' });
    // Only timeout_seconds ends each attempt: without it, the default would outlast the test's
    // limit.
    const error = await failureOf(modelFor({ timeout_seconds: 0.2, max_attempts: 2 }).generate(ask));
    expect(error.code).toBe('provider-timeout');
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(2);
  });

  it('recovers from a timed-out attempt', async () => {
    server.script({ kind: 'hang' }, { kind: 'json', body: completion('4') });
    const result = await modelFor({ timeout_seconds: 0.2 }).generate(ask);
    expect(result.text).toBe('4');
    expect(server.requests).toHaveLength(2);
  });

  it('retries a reset connection', async () => {
    server.script({ kind: 'reset' }, { kind: 'json', body: completion('4') });
    const result = await modelFor().generate(ask);
    expect(result.text).toBe('4');
    expect(server.requests).toHaveLength(2);
  });

  it('reports a connection that keeps resetting as a retryable provider-connection', async () => {
    server.script({ kind: 'reset' }, { kind: 'reset' });
    const error = await failureOf(modelFor({ max_attempts: 2 }).generate(ask));
    expect(error.code).toBe('provider-connection');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain(server.url('/v1'));
  });

  it('retries a body that is not JSON, and reports reply-malformed when it persists', async () => {
    server.script({ kind: 'text', body: '{"id": "chatcmpl-1", "choices": [' }, { kind: 'json', body: completion('4') });
    expect((await modelFor().generate(ask)).text).toBe('4');
    expect(server.requests).toHaveLength(2);

    server.script({ kind: 'text', body: 'not json' }, { kind: 'text', body: '<html>proxy error</html>', headers: { 'content-type': 'text/html' } });
    const error = await failureOf(modelFor({ max_attempts: 2 }).generate(ask));
    expect(error.code).toBe('reply-malformed');
    expect(error.retryable).toBe(true);
  });
});

describe('base URLs that carry credentials', () => {
  it("sends the base URL's query with every request, at the right path, and keeps its key out of errors", async () => {
    const querySecret = 'query-secret-0123456789';
    server.script({ kind: 'json', status: 500, body: errorBody(`gateway echoed key ${querySecret}`, 'server_error') }, { kind: 'json', body: completion('4') });
    const model = modelFor({ base_url: `${server.url('/v1')}?api-key=${querySecret}`, max_attempts: 2 });
    expect((await model.generate(ask)).text).toBe('4');
    expect(server.requests.map((request) => request.path)).toEqual([
      `/v1/chat/completions?api-key=${querySecret}`,
      `/v1/chat/completions?api-key=${querySecret}`,
    ]);
    server.script(
      { kind: 'json', status: 500, body: errorBody(`gateway echoed key ${querySecret}`, 'server_error') },
      { kind: 'json', status: 500, body: errorBody(`gateway echoed key ${querySecret}`, 'server_error') },
    );
    const error = await failureOf(model.generate(ask));
    expect(error.message).toContain('gateway echoed key [redacted]');
    expect(JSON.stringify({ error: error.toJSON(), settings: (model as unknown as { settings: unknown }).settings })).not.toContain(querySecret);
  });

  it('refuses a base URL with a user name or password when the model is created, without repeating the password', () => {
    const attempt = () => modelFor({ base_url: server.url('/v1').replace('http://', 'http://user:hunter2-password@') });
    expect(attempt).toThrow(SkillOptError);
    expect(attempt).toThrow(/^backends\.openai: base_url carries a user name or password \(http:\/\/\[redacted\]@127\.0\.0\.1:\d+\/v1\)/);
    expect(attempt).not.toThrow(/hunter2-password/);
    expect(server.requests).toHaveLength(0);
  });
});

describe('failures that are not retried', () => {
  it('fails a 401 at once, naming the variable the key came from but never the key', async () => {
    server.script({ kind: 'json', status: 401, body: errorBody(`Incorrect API key provided: ${KEY}.`, 'invalid_request_error', 'invalid_api_key') });
    const error = await failureOf(modelFor().generate(ask));
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expect(error.code).toBe('provider-authentication');
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.message).toContain('OPENAI_API_KEY');
    expect(error.message).not.toContain(KEY);
    expect(JSON.stringify(error.toJSON())).not.toContain(KEY);
  });

  it('fails a 403 at once', async () => {
    server.script({ kind: 'json', status: 403, body: errorBody('Project does not have access to model', 'invalid_request_error', 'model_not_found') });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('provider-authentication');
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 404 as model-not-found naming the model and the base URL', async () => {
    server.script({
      kind: 'json',
      status: 404,
      body: errorBody('The model `gpt-9` does not exist or you do not have access to it.', 'invalid_request_error', 'model_not_found'),
    });
    const error = await failureOf(modelFor({}, 'gpt-9').generate(ask));
    expect(error.code).toBe('model-not-found');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('"gpt-9"');
    expect(error.message).toContain(server.url('/v1'));
    expect(error.message).toContain('model.target');
    expect(server.requests).toHaveLength(1);
  });

  it('suggests the nearest model it knows for a misspelt one that is not found', async () => {
    server.script({ kind: 'json', status: 404, body: errorBody('The model `gpt-4o-mni` does not exist.', 'invalid_request_error', 'model_not_found') });
    const error = await failureOf(modelFor({}, 'gpt-4o-mni').generate(ask));
    expect(error.code).toBe('model-not-found');
    expect(error.message).toContain('did you mean "gpt-4o-mini"?');
    expect(server.requests).toHaveLength(1);
  });

  it('does not wait out an exhausted quota (429 insufficient_quota)', async () => {
    server.script({ kind: 'json', status: 429, body: errorBody('You exceeded your current quota', 'insufficient_quota', 'insufficient_quota') });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('provider-quota-exceeded');
    expect(error.retryable).toBe(false);
    expect(server.requests).toHaveLength(1);
  });

  it('reports a 400 as a non-retryable bad request', async () => {
    server.script({ kind: 'json', status: 400, body: errorBody("Unsupported parameter: 'temperature'", 'invalid_request_error', 'unsupported_parameter') });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('provider-bad-request');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain("Unsupported parameter: 'temperature'");
  });
});

describe('answers that are no answer (retryable for core, not retried here)', () => {
  it('an empty reply is reply-empty', async () => {
    server.script({ kind: 'json', body: completion('') });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-empty');
    expect(error.retryable).toBe(true);
    expect(server.requests).toHaveLength(1);
  });

  it('says when the output limit was spent before any text', async () => {
    server.script({ kind: 'json', body: completion('', { finishReason: 'length' }) });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-empty');
    expect(error.message).toMatch(/output-token limit/);
  });

  it('a refusal is reply-refused', async () => {
    server.script({ kind: 'json', body: completion(null, { refusal: "I'm sorry, I can't help with that." }) });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-refused');
    expect(error.message).toContain("I'm sorry");
    expect(server.requests).toHaveLength(1);
  });

  it('a content filter stop is reply-refused, even with partial text', async () => {
    server.script({ kind: 'json', body: completion('Here is how to', { finishReason: 'content_filter' }) });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-refused');
  });

  it('Azure-style 400 content_filter is reply-refused', async () => {
    server.script({
      kind: 'json',
      status: 400,
      body: errorBody(
        "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.",
        'invalid_request_error',
        'content_filter',
      ),
    });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-refused');
    expect(server.requests).toHaveLength(1);
  });

  it('malformed tool-call arguments are reply-malformed', async () => {
    server.script({ kind: 'json', body: completion(null, { toolCalls: [{ id: 'call_1', name: 'lookup', arguments: '{"query": "Par' }] }) });
    const error = await failureOf(modelFor().generate(ask));
    expect(error.code).toBe('reply-malformed');
    expect(error.retryable).toBe(true);
    expect(error.message).toContain('lookup');
    expect(server.requests).toHaveLength(1);
  });
});

describe('cancellation and limits', () => {
  it("rejects with the caller's reason when the signal aborts mid-call", async () => {
    server.script({ kind: 'hang' });
    const controller = new AbortController();
    const reason = new Error('run stopped');
    const pending = modelFor().generate({ ...ask, signal: controller.signal });
    // Abort once the request is at the server (not after a fixed delay, which a slow start outlasts).
    while (server.requests.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });

  it('keeps max_concurrency calls in flight at most', async () => {
    const model = modelFor({ max_concurrency: 2 });
    const results = await Promise.all(Array.from({ length: 6 }, () => model.generate(ask)));
    expect(results).toHaveLength(6);
    expect(server.requests).toHaveLength(6);
    expect(server.peakConcurrency()).toBeLessThanOrEqual(2);
  });

  it('shares one limiter between the target and the optimizer that reach one server with one key', async () => {
    const backend = createBackend(
      { base_url: server.url('/v1'), max_concurrency: 2 },
      { environment: { OPENAI_API_KEY: KEY }, rateLimiters: createRateLimiterRegistry() },
    );
    const target = backend.createChatModel({ role: 'target', modelId: 'gpt-5-mini' });
    const optimizer = backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5' });
    server.script(...Array.from({ length: 6 }, () => ({ kind: 'json' as const, body: completion('4'), delayMs: 30 })));
    await Promise.all(Array.from({ length: 6 }, (_unused, index) => (index % 2 === 0 ? target : optimizer).generate(ask)));
    expect(server.requests).toHaveLength(6);
    expect(server.peakConcurrency()).toBe(2);
  });

  it('keeps 8 calls in flight at most when no max_concurrency is set, and declares that default', async () => {
    const backend = createBackend({ base_url: server.url('/v1') }, { environment: { OPENAI_API_KEY: KEY }, rateLimiters: createRateLimiterRegistry() });
    const model = backend.createChatModel({ role: 'target', modelId: 'gpt-5-mini' });
    expect(model.defaultConcurrency).toBe(8);
    expect(modelFor({ max_concurrency: 3 }).defaultConcurrency).toBe(3);
    server.script(...Array.from({ length: 12 }, () => ({ kind: 'json' as const, body: completion('4'), delayMs: 30 })));
    await Promise.all(Array.from({ length: 12 }, () => model.generate(ask)));
    expect(server.requests).toHaveLength(12);
    expect(server.peakConcurrency()).toBe(8);
  });

  it('announces each request when it leaves the limiter’s queue, before the server receives it', async () => {
    const model = createBackend(
      { base_url: server.url('/v1'), max_concurrency: 1 },
      { environment: { OPENAI_API_KEY: KEY }, rateLimiters: createRateLimiterRegistry() },
    ).createChatModel({ role: 'target', modelId: 'gpt-5-mini' });
    expect(model.capabilities?.announcesDispatch).toBe(true);
    server.script(...Array.from({ length: 2 }, () => ({ kind: 'json' as const, body: completion('4'), delayMs: 30 })));
    const receivedAtDispatch: number[] = [];
    const onDispatch = async () => {
      receivedAtDispatch.push(server.requests.length);
    };
    await Promise.all([model.generate({ ...ask, onDispatch }), model.generate({ ...ask, onDispatch })]);
    // The second call waited in the queue until the first was answered.
    expect(receivedAtDispatch).toEqual([0, 1]);
  });

  it('rejects an invalid request as an internal error before sending it', async () => {
    const error: unknown = await modelFor()
      .generate({ messages: [], purpose: 'rollout' })
      .catch((failure: unknown) => failure);
    expect(SkillOptError.isInstance(error) && error.code).toBe('data-invalid');
    expect(server.requests).toHaveLength(0);
  });
});
