import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, renderChatPrompt, type PiBackendConfigInput } from '../src/index';
import { fakePi, piAssistantMessage, piTranscript } from './fake-pi';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'pi-chat-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function modelFor(scenario: FakeHarnessScenario, config: PiBackendConfigInput = {}, sleep?: (milliseconds: number) => Promise<void>) {
  const fake = await fakePi(directory, scenario);
  const backend = createBackend(
    { path: fake.command, base_url: 'http://127.0.0.1:9/v1', ...config },
    { environment: { OPTIMIZER_PI_API_KEY: 'sk-role' }, rateLimiters: createRateLimiterRegistry(), ...(sleep ? { sleep } : {}) },
  );
  return { fake, model: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }) };
}

const valueAfter = (argv: readonly string[], flag: string) => argv[argv.indexOf(flag) + 1];

describe('pi as a chat model', () => {
  it("answers with no tools, context or skills: the system text replacing Pi's prompt, the user's text on stdin, the cap as the model's maxTokens", async () => {
    const { fake, model } = await modelFor({ transcript: piTranscript('Paris.') });
    const result = await model.generate({
      messages: [
        { role: 'system', content: 'Answer in one word.' },
        { role: 'user', content: 'The capital of France?' },
      ],
      maxOutputTokens: 64,
      reasoningEffort: 'low',
      purpose: 'optimizer',
    });
    expect(result).toMatchObject({ text: 'Paris.', finishReason: 'stop', usage: { inputTokens: 40, outputTokens: 7, cachedInputTokens: 10 } });
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('The capital of France?');
    expect(invocation.argv).toEqual(expect.arrayContaining(['--no-tools', '--no-skills', '--no-context-files']));
    expect(valueAfter(invocation.argv, '--thinking')).toBe('low');
    expect(invocation.files).toEqual([]);
    const state = await fake.state();
    expect(state.systemPrompt).toBe('Answer in one word.');
    expect(JSON.stringify(state.models)).toContain('"maxTokens":64');
    expect(JSON.stringify(state.models)).toContain('"reasoning":true');
  });

  it('asks for JSON in words, quoting the schema, and says it cannot hold the reply to it; warns of what it cannot honour', async () => {
    const { fake, model } = await modelFor({ transcript: piTranscript('{"answer":"4"}') });
    const schema = { type: 'object', properties: { answer: { type: 'string' } } };
    const result = await model.generate({
      messages: [{ role: 'user', content: 'What is 2+2?' }],
      responseFormat: { type: 'json', name: 'answer', schema },
      temperature: 0.2,
      purpose: 'judge',
    });
    expect((await fake.invocation()).stdin).toBe(
      `What is 2+2?\n\nReply with one JSON value and nothing else. It must match this JSON Schema:\n${JSON.stringify(schema)}`,
    );
    expect(result.warnings?.map((warning) => (warning.type === 'unsupported-setting' ? warning.field : warning.type))).toEqual([
      'temperature',
      'responseFormat',
    ]);
    expect((await fake.state()).systemPrompt).toBe('You are a helpful assistant. Answer the request directly.');
  });

  it('tries a transient failure again (max_retries), and gives up at once on a refused key', async () => {
    const waits: number[] = [];
    const sleep = async (milliseconds: number) => void waits.push(milliseconds);
    const overloaded = { ...piAssistantMessage('', null, 'error'), errorMessage: '503 overloaded' };
    const flaky = await modelFor({ transcript: [{ type: 'message_end', message: overloaded }] }, { max_retries: 2 }, sleep);
    expect(await flaky.model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'optimizer' }).catch((caught: unknown) => caught)).toMatchObject({
      code: 'provider-unavailable',
    });
    expect(waits).toHaveLength(2);
    waits.length = 0;
    const refused = { ...piAssistantMessage('', null, 'error'), errorMessage: '401 bad key' };
    const rejected = await modelFor({ transcript: [{ type: 'message_end', message: refused }] }, { max_retries: 2 }, sleep);
    expect(
      await rejected.model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'optimizer' }).catch((caught: unknown) => caught),
    ).toMatchObject({
      code: 'provider-authentication',
      retryable: false,
    });
    expect(waits).toHaveLength(0);
  });

  it('writes a longer conversation out turn by turn, ending with the request for the next reply', () => {
    const { system, prompt } = renderChatPrompt([
      { role: 'system', content: 'Be brief.' },
      { role: 'user', content: 'Hi' },
      { role: 'assistant', content: 'Hello.' },
      { role: 'user', content: 'Bye' },
    ]);
    expect(system).toBe('Be brief.');
    expect(prompt).toBe('The conversation so far:\n\nUser:\nHi\n\nAssistant:\nHello.\n\nUser:\nBye\n\nReply to the last message as the assistant.');
  });
});
