import { ProviderError, type GenerateRequest, type Message } from '@skillopt/contract';
// Tests may reach across packages (the layering rule covers shipped sources): the simulator is the
// OpenAI-compatible test double of every HTTP backend, imported by path, not as a dependency.
import { createAnswerKey, createSimulatedModel, createSimulatorServer, type SimulatorServer } from '../../backends-sim/src/index';
import { GOOD_SKILL, hardScore, syntheticItems, systemPrompt, userPrompt } from '../../backends-sim/test/helpers';
import { reflectFailurePrompt } from '../../backends-sim/test/optimizer-prompts';
import { parseReply, reflectReply } from '../../backends-sim/test/reply-schemas';
import { rateLimitedReply, serverErrorReply, startFaultInjectingServer, unauthorizedReply } from '@skillopt/backends-kit/testing';
import { createBackend } from '../src/index';

const items = syntheticItems();
let simulator: SimulatorServer;

beforeAll(async () => {
  simulator = await createSimulatorServer({ seed: 7, noise: 0, items });
});
afterAll(async () => {
  await simulator.close();
});

// What configs/features/openai-via-sim.yaml configures: preset openai_compatible at the simulator, no key.
const backend = () => createBackend({ preset: 'openai_compatible', base_url: simulator.url }, { environment: {} });

function taskMessages(question: string): Message[] {
  return [
    { role: 'system', content: systemPrompt(GOOD_SKILL) },
    { role: 'user', content: userPrompt(question) },
  ];
}

describe('the openai backend against the simulated OpenAI-compatible server', () => {
  it('runs target calls: the same answers as the in-process simulated model, with usage', async () => {
    const target = backend().createChatModel({ role: 'target', modelId: 'sim-target' });
    expect([target.provider, target.modelId]).toEqual(['openai-compatible', 'sim-target']);
    const inProcess = createSimulatedModel({ role: 'target', modelId: 'sim-target', seed: 7, noise: 0, answerKey: createAnswerKey(items) });
    let passed = 0;
    for (const item of items.slice(0, 12)) {
      const request: GenerateRequest = { messages: taskMessages(item.question as string), purpose: 'rollout' };
      const [overHttp, direct] = await Promise.all([target.generate(request), inProcess.generate(request)]);
      expect(overHttp.text).toBe(direct.text);
      expect(overHttp.finishReason).toBe('stop');
      expect(overHttp.usage).toEqual({ inputTokens: direct.usage.inputTokens, outputTokens: direct.usage.outputTokens });
      expect(overHttp.usage.estimated).toBeUndefined();
      passed += hardScore(overHttp.text, item.references as string[]);
    }
    // With a skill that states the answer format and no noise, the simulated target answers right.
    expect(passed).toBe(12);
  });

  it('answers a request with a field the contract does not know, and reports it and what it did not send as warnings', async () => {
    const target = backend().createChatModel({ role: 'target', modelId: 'sim-target' });
    const item = items[3] as { question: string };
    const request: GenerateRequest = { messages: taskMessages(item.question), purpose: 'rollout' };
    const plain = await target.generate(request);
    expect(plain.warnings).toBeUndefined();
    const extended = await target.generate({ ...request, reasoningEffort: 'high', seed: 3 } as GenerateRequest);
    expect(extended.text).toBe(plain.text);
    expect(extended.warnings).toEqual([
      expect.objectContaining({ type: 'unknown-field', field: 'seed' }),
      expect.objectContaining({ type: 'unsupported-setting', field: 'reasoningEffort' }),
    ]);
    expect(target.capabilities).toMatchObject({ tools: true, reportedUsage: true });
  });

  it('runs an optimizer call: a reflection reply the optimizer can parse', async () => {
    const optimizer = backend().createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' });
    const failed = items.slice(0, 4).map((item, index) => ({
      id: item.id,
      hard: 0,
      soft: 0,
      prediction: `The answer is ${String(index)}`,
      reference: (item.references as string[])[0] as string,
      turns: [{ role: 'assistant', content: `The answer is ${String(index)}` }],
    }));
    const result = await optimizer.generate({
      messages: [{ role: 'user', content: reflectFailurePrompt(GOOD_SKILL, failed) }],
      responseFormat: { type: 'json' },
      purpose: 'reflect',
    });
    const reply = parseReply(result.text, reflectReply);
    expect(Array.isArray(reply.edits)).toBe(true);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('runs a tool loop: the simulated target calls the tool, then answers from its result', async () => {
    const target = backend().createChatModel({ role: 'target', modelId: 'sim-target' });
    const item = items[3] as { question: string; references: string[] };
    const tools = [{ name: 'search', description: 'Searches the documents.', inputSchema: { type: 'object', properties: { query: { type: 'string' } } } }];
    const messages = taskMessages(item.question);
    const first = await target.generate({ messages, tools, purpose: 'rollout' });
    expect(first.finishReason).toBe('tool-calls');
    const call = first.toolCalls?.[0];
    expect(call?.toolName).toBe('search');
    const second = await target.generate({
      messages: [
        ...messages,
        {
          role: 'assistant',
          content: [
            { type: 'text', text: first.text },
            { type: 'tool-call', toolCallId: call?.toolCallId ?? '', toolName: 'search', input: call?.input },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: call?.toolCallId ?? '', toolName: 'search', output: 'No results.' }] },
      ],
      tools,
      purpose: 'rollout',
    });
    expect(hardScore(second.text, item.references)).toBe(1);
  });

  it('reports a model the server does not serve as model-not-found, naming it and the server', async () => {
    const error: unknown = await backend()
      .createChatModel({ role: 'target', modelId: 'sim-nonexistent' })
      .generate({ messages: taskMessages('?'), purpose: 'rollout' })
      .catch((failure: unknown) => failure);
    expect(ProviderError.isInstance(error) && [error.code, error.retryable]).toEqual(['model-not-found', false]);
    expect((error as Error).message).toContain('sim-nonexistent');
    expect((error as Error).message).toContain(simulator.url);
  });

  it('waits out a 429 and retries a 503 injected in front of the simulator, then gets its answer', async () => {
    const proxy = await startFaultInjectingServer({ upstream: new URL(simulator.url).origin });
    try {
      proxy.script(rateLimitedReply({ retryAfterMs: 20 }), serverErrorReply(503));
      const target = createBackend(
        { preset: 'openai_compatible', base_url: proxy.url(new URL(simulator.url).pathname), max_attempts: 3 },
        { environment: {} },
      ).createChatModel({
        role: 'target',
        modelId: 'sim-target',
      });
      const item = items[0] as { question: string; references: string[] };
      const result = await target.generate({ messages: taskMessages(item.question), purpose: 'rollout' });
      expect(hardScore(result.text, item.references)).toBe(1);
      expect(proxy.requests).toHaveLength(3);
      expect(proxy.requests.every((request) => request.path.endsWith('/chat/completions'))).toBe(true);
    } finally {
      await proxy.close();
    }
  });

  describe('with base_url alone (no preset): an OpenAI-compatible server', () => {
    async function throughProxy<Result>(use: (proxy: Awaited<ReturnType<typeof startFaultInjectingServer>>, baseUrl: string) => Promise<Result>) {
      const proxy = await startFaultInjectingServer({ upstream: new URL(simulator.url).origin });
      try {
        return await use(proxy, proxy.url(new URL(simulator.url).pathname));
      } finally {
        await proxy.close();
      }
    }

    it('answers with no key, sending no Authorization header and never OPENAI_API_KEY', async () => {
      await throughProxy(async (proxy, baseUrl) => {
        const target = createBackend({ base_url: baseUrl }, { environment: { OPENAI_API_KEY: 'sk-meant-for-openai-only' } }).createChatModel({
          role: 'target',
          modelId: 'sim-target',
        });
        expect(target.provider).toBe('openai-compatible');
        const item = items[1] as { question: string; references: string[] };
        const result = await target.generate({ messages: taskMessages(item.question), purpose: 'rollout' });
        expect(hardScore(result.text, item.references)).toBe(1);
        expect(proxy.requests).toHaveLength(1);
        expect(proxy.requests[0]?.headers.authorization).toBeUndefined();
      });
    });

    it('sends the compatible preset key when it is set', async () => {
      await throughProxy(async (proxy, baseUrl) => {
        const target = createBackend({ base_url: baseUrl }, { environment: { OPENAI_COMPATIBLE_API_KEY: 'local-server-key' } }).createChatModel({
          role: 'target',
          modelId: 'sim-target',
        });
        await target.generate({ messages: taskMessages((items[2] as { question: string }).question), purpose: 'rollout' });
        expect(proxy.requests[0]?.headers.authorization).toBe('Bearer local-server-key');
      });
    });

    it('names the one key variable to add when the server wants a key', async () => {
      await throughProxy(async (proxy, baseUrl) => {
        proxy.script(unauthorizedReply());
        const target = createBackend({ base_url: baseUrl }, { environment: {} }).createChatModel({ role: 'target', modelId: 'sim-target' });
        const error = await target.generate({ messages: taskMessages('q'), purpose: 'rollout' }).catch((caught: unknown) => caught);
        expect(ProviderError.isInstance(error)).toBe(true);
        expect((error as ProviderError).code).toBe('provider-authentication');
        expect((error as ProviderError).message).toContain('(no API key was sent: set OPENAI_COMPATIBLE_API_KEY)');
        expect(proxy.requests).toHaveLength(1);
      });
    });
  });
});
