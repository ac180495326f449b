import { ProviderError, type GenerateRequest } from '@skillopt/contract';
import { createBackend, type AnthropicBackendConfigInput } from '../src/index';
import { providerErrorFromAttempt } from '../src/provider-error-mapping';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FaultInjectingServer, ScriptedReply } from '@skillopt/backends-kit/testing';
import { errorReply, messageReply, startAnthropicServer } from './anthropic-replies';

const API_KEY = 'sk-ant-test-0123456789-secret';
const SKILL_PROMPT = 'You answer trivia questions.\n\n## Skill\n# Question Answering Skill\n- Give the final answer in <answer></answer> tags.';

const rollout: GenerateRequest = {
  messages: [
    { role: 'system', content: SKILL_PROMPT },
    { role: 'user', content: 'How many moons does Arvandia have?' },
  ],
  purpose: 'rollout',
};

const servers: FaultInjectingServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((started) => started.close()));
});

async function startServer(...args: Parameters<typeof startAnthropicServer>): Promise<FaultInjectingServer> {
  const started = await startAnthropicServer(...args);
  servers.push(started);
  return started;
}

/** A target model on the real SDK, pointed at a fixture server; retry waits are recorded, not slept. */
async function modelAgainst(script: ScriptedReply[], config: AnthropicBackendConfigInput = {}, fallback?: ScriptedReply) {
  const server = await startServer(script, fallback);
  const waits: number[] = [];
  const backend = createBackend(
    { base_url: server.url(), max_retries: 3, ...config },
    {
      environment: { ANTHROPIC_API_KEY: API_KEY },
      retryTiming: {
        sleep: async (milliseconds) => {
          waits.push(milliseconds);
        },
        random: () => 0.5,
      },
    },
  );
  return { model: backend.createChatModel({ role: 'target' }), waits, server };
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the call to fail');
}

function expectNoSecret(value: unknown): void {
  expect(JSON.stringify(value)).not.toContain(API_KEY);
}

describe('the Messages API through the real SDK, against a loopback fixture', () => {
  it('sends the system prompt as a cached block and reports cached tokens in usage', async () => {
    const { model, server } = await modelAgainst([
      { kind: 'json', body: messageReply({ usage: { input_tokens: 30, cache_creation_input_tokens: 1800, cache_read_input_tokens: 0, output_tokens: 12 } }) },
      { kind: 'json', body: messageReply({ usage: { input_tokens: 28, cache_creation_input_tokens: 0, cache_read_input_tokens: 1800, output_tokens: 10 } }) },
    ]);
    const first = await model.generate(rollout);
    const second = await model.generate({ ...rollout, messages: [rollout.messages[0]!, { role: 'user', content: 'Another question?' }] });

    const request = server.requests[0]!;
    expect(request.method).toBe('POST');
    expect(request.path).toBe('/v1/messages');
    expect(request.headers.authorization ?? request.headers['x-api-key']).toContain(API_KEY);
    expect(request.headers['anthropic-version']).toBeDefined();
    expect(request.body).toMatchObject({
      model: 'claude-sonnet-4-6',
      max_tokens: 16384,
      system: [{ type: 'text', text: SKILL_PROMPT, cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: [{ type: 'text', text: 'How many moons does Arvandia have?' }] }],
    });
    expect(request.body.stream).toBeUndefined();
    // The same cached prefix on the second call.
    expect(server.requests[1]!.body.system).toEqual(request.body.system);

    expect(first.text).toBe('The answer is <answer>42</answer>.');
    expect(first.finishReason).toBe('stop');
    expect(first.usage).toEqual({ inputTokens: 30 + 1800, outputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 1800 });
    expect(second.usage).toEqual({ inputTokens: 28 + 1800, outputTokens: 10, cachedInputTokens: 1800, cacheWriteInputTokens: 0 });
    expect(first.providerMetadata).toMatchObject({
      responseId: 'msg_01FixtureReply',
      model: 'claude-sonnet-4-6',
      stopReason: 'end_turn',
      requestId: 'req_fixture',
      cacheCreationInputTokens: 1800,
    });
    expect(second.providerMetadata).toMatchObject({ cacheReadInputTokens: 1800 });
    expectNoSecret([first, second]);
  });

  it('uses a default model the SDK does not warn about', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const { model, server } = await modelAgainst([], { thinking_budget_tokens: 1024 });
      await model.generate(rollout);
      expect(server.requests[0]!.body.model).toBe('claude-sonnet-4-6');
      expect(warn).not.toHaveBeenCalled();
    } finally {
      warn.mockRestore();
    }
  });

  it('sends no cache_control with prompt_caching off', async () => {
    const { model, server } = await modelAgainst([], { prompt_caching: false });
    await model.generate(rollout);
    expect(server.requests[0]!.body.system).toEqual([{ type: 'text', text: SKILL_PROMPT }]);
  });

  it('waits the retry-after of a 429, then succeeds, counting usage once', async () => {
    const { model, waits, server } = await modelAgainst([
      errorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', { 'retry-after': '7' }),
    ]);
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(2);
    expect(waits).toEqual([7000]);
    expect(result.usage).toEqual({ inputTokens: 25, outputTokens: 12, cachedInputTokens: 0, cacheWriteInputTokens: 0 });
  });

  it('retries a 500 and a 529 overloaded error with backoff, counting usage once', async () => {
    const { model, waits, server } = await modelAgainst([
      errorReply(500, 'api_error', 'Internal server error'),
      errorReply(529, 'overloaded_error', 'Overloaded'),
    ]);
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(3);
    expect(waits).toHaveLength(2); // jittered backoff: random 0.5 of 500 ms, then of 1000 ms
    expect(waits).toEqual([250, 500]);
    expect(result.usage.inputTokens).toBe(25);
    expect(result.usage.outputTokens).toBe(12);
  });

  it('gives up after max_retries with the last retryable error', async () => {
    const { model, server } = await modelAgainst([], { max_retries: 2 }, errorReply(529, 'overloaded_error', 'Overloaded'));
    const error = await failureOf(model.generate(rollout));
    expect(server.requests).toHaveLength(3);
    expect(error).toMatchObject({ code: 'provider-unavailable', retryable: true, status: 529, provider: 'anthropic' });
    expect(error.message).toMatch(/overloaded/i);
    expectNoSecret(error.toJSON());
  });

  it('waits out more 429s than max_retries allows failures: a rate limit does not use up a retry', async () => {
    const rateLimited = errorReply(429, 'rate_limit_error', 'Number of requests has exceeded your rate limit', { 'retry-after': '1' });
    const { model, waits, server } = await modelAgainst([rateLimited, rateLimited, errorReply(500, 'api_error', 'Internal server error'), rateLimited], {
      max_retries: 1,
    });
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(5);
    // Three waits the API asked for, and the backoff of a first failure (half of 500 ms at random() = 0.5):
    // the 429s before it do not stretch it.
    expect(waits).toEqual([1000, 1000, 250, 1000]);
    expect(result.usage.inputTokens).toBe(25);
  });

  it('ends a reply that never comes with a retryable provider-timeout', async () => {
    // Only timeout_ms ends the call: without it, the default of ten minutes would outlast the
    // test's limit.
    const { model, server } = await modelAgainst([], { timeout_ms: 200, max_retries: 0 }, { kind: 'hang' });
    const error = await failureOf(model.generate(rollout));
    expect(error).toMatchObject({ code: 'provider-timeout', retryable: true, provider: 'anthropic' });
    expect(server.requests).toHaveLength(1);
  });

  it('retries after a timeout and succeeds', async () => {
    const { model, server } = await modelAgainst([{ kind: 'hang' }], { timeout_ms: 300, max_retries: 1 });
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(2);
    expect(result.usage.inputTokens).toBe(25);
  });

  it('retries a reset connection', async () => {
    const { model, server } = await modelAgainst([{ kind: 'reset' }]);
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(2);
    expect(result.text).toContain('42');
    expect(result.usage.outputTokens).toBe(12);
  });

  it('reports a connection that keeps breaking as a retryable provider-connection', async () => {
    const { model, server } = await modelAgainst([], { max_retries: 1 }, { kind: 'reset' });
    const error = await failureOf(model.generate(rollout));
    expect(error).toMatchObject({ code: 'provider-connection', retryable: true });
    expect(server.requests).toHaveLength(2);
  });

  it('treats a malformed body as a retryable reply-malformed and retries it', async () => {
    const { model, server } = await modelAgainst([{ kind: 'text', body: '{"id": "msg_1", "content": [' }]);
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(2);
    expect(result.usage.inputTokens).toBe(25);

    const { model: broken } = await modelAgainst([], { max_retries: 0 }, { kind: 'json', body: { unexpected: true } });
    const error = await failureOf(broken.generate(rollout));
    expect(error).toMatchObject({ code: 'reply-malformed', retryable: true });
  });

  it('fails fast on a 401 without retrying: exactly one request', async () => {
    const { model, waits, server } = await modelAgainst([], {}, errorReply(401, 'authentication_error', 'invalid x-api-key'));
    const error = await failureOf(model.generate(rollout));
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, status: 401 });
    expect(server.requests).toHaveLength(1);
    expect(waits).toEqual([]);
    expectNoSecret(error.toJSON());
    expect(error.message).not.toContain(API_KEY);
  });

  it('scrubs the key from an error body that echoes the request (a gateway in front of the API)', async () => {
    const { model } = await modelAgainst([], {}, errorReply(400, 'invalid_request_error', `rejected request with headers x-api-key: ${API_KEY}`));
    const error = await failureOf(model.generate(rollout));
    expect(error).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(error.message).not.toContain(API_KEY);
    expect(error.message).toContain('[redacted]');
    expectNoSecret(error.toJSON());
  });

  it("sends the base URL's query with every request and keeps its key out of errors", async () => {
    const querySecret = 'query-secret-0123456789';
    const server = await startServer([errorReply(500, 'api_error', `gateway echoed ${querySecret}`)]);
    const backend = createBackend({ base_url: `${server.url()}/?api-key=${querySecret}`, max_retries: 0 }, { environment: { ANTHROPIC_API_KEY: API_KEY } });
    const model = backend.createChatModel({ role: 'target' });
    const error = await failureOf(model.generate(rollout));
    expect(error.message).toContain('gateway echoed [redacted]');
    expect(JSON.stringify(error.toJSON())).not.toContain(querySecret);
    expect((await model.generate(rollout)).text).toBeTruthy();
    expect(server.requests.map((request) => request.path)).toEqual([`/v1/messages?api-key=${querySecret}`, `/v1/messages?api-key=${querySecret}`]);
  });

  it('refuses a base URL with a user name or password when the model is created, without repeating the password', () => {
    const backend = createBackend({ base_url: 'http://user:hunter2-password@127.0.0.1:8787' }, { environment: { ANTHROPIC_API_KEY: API_KEY } });
    const attempt = () => backend.createChatModel({ role: 'optimizer' });
    expect(attempt).toThrow(/^backends\.anthropic: base_url carries a user name or password \(http:\/\/\[redacted\]@127\.0\.0\.1:8787\/\)/);
    expect(attempt).not.toThrow(/hunter2-password/);
  });

  it('scrubs the URL and the key out of the network error it maps (fetch names the URL it could not reach)', () => {
    const cause = new TypeError(`fetch failed for http://user:hunter2-password@gateway.internal/v1/messages?api-key=query-secret-1 with ${API_KEY}`);
    const mapped = providerErrorFromAttempt(Object.assign(new Error('Connection error.', { cause }), { name: 'APIConnectionError' }), 'claude-haiku-4-5', [
      API_KEY,
    ]);
    expect(mapped).toMatchObject({ code: 'provider-connection', retryable: true });
    const text = JSON.stringify((mapped as ProviderError).toJSON());
    expect(text).not.toMatch(/hunter2-password|query-secret-1/);
    expectNoSecret(text);
  });

  it('fails fast on a 403 too', async () => {
    const { model, server } = await modelAgainst([], {}, errorReply(403, 'permission_error', 'Your API key does not have permission'));
    expect(await failureOf(model.generate(rollout))).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('turns a 404 not_found_error into model-not-found naming the model', async () => {
    const server = await startServer([], errorReply(404, 'not_found_error', 'model: claude-nonexistent-9'));
    const backend = createBackend({ base_url: server.url() }, { environment: { ANTHROPIC_API_KEY: API_KEY } });
    const model = backend.createChatModel({ role: 'optimizer', modelId: 'claude-nonexistent-9' });
    const error = await failureOf(model.generate({ ...rollout, purpose: 'reflect' }));
    expect(error).toMatchObject({ code: 'model-not-found', retryable: false, status: 404 });
    expect(error.message).toContain('"claude-nonexistent-9"');
    expect(error.details).toMatchObject({ modelId: 'claude-nonexistent-9', errorType: 'not_found_error' });
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]!.body.model).toBe('claude-nonexistent-9');
  });

  it('does not retry a 400 bad request', async () => {
    const { model, server } = await modelAgainst([], {}, errorReply(400, 'invalid_request_error', 'prompt is too long'));
    expect(await failureOf(model.generate(rollout))).toMatchObject({ code: 'provider-bad-request', retryable: false });
    expect(server.requests).toHaveLength(1);
  });

  it('turns a refusal into reply-refused, without retrying it here', async () => {
    const { model, server } = await modelAgainst([], {}, { kind: 'json', body: messageReply({ content: [], stopReason: 'refusal' }) });
    const error = await failureOf(model.generate(rollout));
    expect(error).toMatchObject({ code: 'reply-refused', retryable: true });
    expect(error.details).toMatchObject({ usage: { inputTokens: 25, outputTokens: 12 } });
    expect(server.requests).toHaveLength(1);
  });

  it('turns an empty reply into reply-empty (retried, since another sample may answer)', async () => {
    const { model, server } = await modelAgainst([{ kind: 'json', body: messageReply({ content: [{ type: 'text', text: '  ' }] }) }]);
    const result = await model.generate(rollout);
    expect(server.requests).toHaveLength(2);
    expect(result.text).toContain('42');

    const { model: alwaysEmpty } = await modelAgainst([], { max_retries: 0 }, { kind: 'json', body: messageReply({ content: [], stopReason: 'max_tokens' }) });
    const error = await failureOf(alwaysEmpty.generate(rollout));
    expect(error).toMatchObject({ code: 'reply-empty', retryable: true });
    expect(error.message).toMatch(/max_output_tokens/);
  });

  it('maps stop reasons to finish reasons', async () => {
    const { model } = await modelAgainst([
      { kind: 'json', body: messageReply({ stopReason: 'max_tokens' }) },
      { kind: 'json', body: messageReply({ stopReason: 'stop_sequence' }) },
      { kind: 'json', body: messageReply({ stopReason: 'model_context_window_exceeded' }) },
      { kind: 'json', body: messageReply({ stopReason: 'pause_turn' }) },
    ]);
    const reasons = [];
    for (let index = 0; index < 4; index++) reasons.push((await model.generate(rollout)).finishReason);
    expect(reasons).toEqual(['length', 'stop', 'length', 'other']);
  });

  it('sends extended thinking with its budget and keeps thinking out of the text', async () => {
    const { model, server } = await modelAgainst(
      [
        {
          kind: 'json',
          body: messageReply({
            content: [
              { type: 'thinking', thinking: 'Let me count the moons carefully.', signature: 'sig-1' },
              { type: 'redacted_thinking', data: 'opaque' },
              { type: 'text', text: '<answer>42</answer>', citations: null },
            ],
            usage: {
              input_tokens: 40,
              output_tokens: 300,
              cache_read_input_tokens: 0,
              cache_creation_input_tokens: 0,
              output_tokens_details: { thinking_tokens: 280 },
            },
          }),
        },
      ],
      { thinking_budget_tokens: 2048, max_output_tokens: 8192 },
    );
    const result = await model.generate({ ...rollout, temperature: 0.2 });
    expect(server.requests[0]!.body).toMatchObject({ thinking: { type: 'enabled', budget_tokens: 2048 }, max_tokens: 8192 });
    expect(server.requests[0]!.body.temperature).toBeUndefined(); // never sent (see buildMessageParams)
    expect(result.text).toBe('<answer>42</answer>');
    expect(result.text).not.toContain('moons carefully');
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 300, cachedInputTokens: 0, cacheWriteInputTokens: 0, reasoningTokens: 280 });
    expect(result.providerMetadata).toMatchObject({ thinkingBlocks: 2, thinkingBudgetTokens: 2048 });
  });

  it('round-trips tool_use and tool_result, replaying the thinking that asked for the tool', async () => {
    const { model, server } = await modelAgainst(
      [
        {
          kind: 'json',
          body: messageReply({
            content: [
              { type: 'thinking', thinking: 'I should search.', signature: 'sig-tool' },
              { type: 'text', text: 'Let me look that up.', citations: null },
              { type: 'tool_use', id: 'toolu_01A', name: 'search', input: { query: 'Arvandia moons' }, caller: { type: 'direct' } },
            ],
            stopReason: 'tool_use',
          }),
        },
      ],
      { thinking_budget_tokens: 1024, max_output_tokens: 4096 },
    );
    const tools = [
      { name: 'search', description: 'Searches the web', inputSchema: { type: 'object', properties: { query: { type: 'string' } }, required: ['query'] } },
    ];
    const first = await model.generate({ ...rollout, tools });
    expect(first.finishReason).toBe('tool-calls');
    expect(first.text).toBe('Let me look that up.');
    expect(first.toolCalls).toEqual([{ toolCallId: 'toolu_01A', toolName: 'search', input: { query: 'Arvandia moons' } }]);
    expect(server.requests[0]!.body.tools).toEqual([{ name: 'search', description: 'Searches the web', input_schema: tools[0]!.inputSchema }]);

    await model.generate({
      ...rollout,
      tools,
      messages: [
        ...rollout.messages,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: first.text },
            { type: 'tool-call', toolCallId: 'toolu_01A', toolName: 'search', input: { query: 'Arvandia moons' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_01A', toolName: 'search', output: 'Arvandia has 42 moons.' }] },
      ],
    });
    const sent = server.requests[1]!.body as { messages: Array<{ role: string; content: Array<Record<string, unknown>> }>; thinking?: unknown };
    expect(sent.thinking).toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect(sent.messages[1]).toEqual({
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'I should search.', signature: 'sig-tool' },
        { type: 'text', text: 'Let me look that up.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'search', input: { query: 'Arvandia moons' } },
      ],
    });
    expect(sent.messages[2]).toEqual({ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: 'Arvandia has 42 moons.' }] });
  });

  it('keeps to max_concurrency through the limiter', async () => {
    const server = await startServer([], { kind: 'json', body: messageReply() }, { delayMs: 40 });
    const backend = createBackend({ base_url: server.url(), max_concurrency: 2 }, { environment: { ANTHROPIC_API_KEY: API_KEY } });
    const model = backend.createChatModel({ role: 'target' });
    const results = await Promise.all(Array.from({ length: 6 }, () => model.generate(rollout)));
    expect(results).toHaveLength(6);
    expect(server.requests).toHaveLength(6);
    expect(server.peakConcurrency()).toBe(2);
  });

  it('keeps 4 calls in flight at most when no max_concurrency is set, declares that default, and announces each request past the queue', async () => {
    const server = await startServer([], { kind: 'json', body: messageReply() }, { delayMs: 40 });
    const backend = createBackend({ base_url: server.url() }, { environment: { ANTHROPIC_API_KEY: API_KEY }, rateLimiters: createRateLimiterRegistry() });
    const model = backend.createChatModel({ role: 'target' });
    expect(model.defaultConcurrency).toBe(4);
    expect(model.capabilities?.announcesDispatch).toBe(true);
    const receivedAtDispatch: number[] = [];
    const onDispatch = async () => {
      receivedAtDispatch.push(server.requests.length);
    };
    await Promise.all(Array.from({ length: 8 }, () => model.generate({ ...rollout, onDispatch })));
    expect(server.requests).toHaveLength(8);
    expect(server.peakConcurrency()).toBe(4);
    // The last four left the queue only after the first four had reached the server.
    expect(receivedAtDispatch).toHaveLength(8);
    expect(Math.min(...receivedAtDispatch.slice(4))).toBeGreaterThanOrEqual(4);
  });

  it("honours the caller's abort: rejects with its reason and does not retry", async () => {
    const { model, server } = await modelAgainst([], { timeout_ms: 10_000 }, { kind: 'hang' });
    const controller = new AbortController();
    const reason = new Error('run stopped');
    const pending = model.generate({ ...rollout, signal: controller.signal });
    setTimeout(() => controller.abort(reason), 100);
    await expect(pending).rejects.toBe(reason);
    expect(server.requests).toHaveLength(1);
  });
});
