import { existsSync } from 'node:fs';
import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type OpencodeBackendConfigInput } from '../src/index';
import { fakeOpencode, opencodeTranscript } from './fake-opencode';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'opencode-chat-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function modelFor(scenario: FakeHarnessScenario, config: OpencodeBackendConfigInput = {}, sleeps: number[] = []) {
  const fake = await fakeOpencode(directory, scenario);
  const backend = createBackend(
    { path: fake.command, ...config },
    {
      environment: { OPENCODE_API_KEY: 'sk-chat' },
      rateLimiters: createRateLimiterRegistry(),
      sleep: async (milliseconds) => void sleeps.push(milliseconds),
    },
  );
  return { fake, model: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }) };
}

type AgentConfig = { permission: Record<string, string>; prompt?: string };

describe('opencode as a chat model', () => {
  it("puts the system text in the agent's prompt, the user's on stdin, and lets the agent use no tool", async () => {
    const { fake, model } = await modelFor({ transcript: opencodeTranscript('{"edits": []}') });
    const result = await model.generate({
      messages: [
        { role: 'system', content: 'You are the optimizer.' },
        { role: 'user', content: 'Propose edits.' },
      ],
      purpose: 'reflect',
    });
    expect(result.text).toBe('{"edits": []}');
    expect(result.usage).toEqual({ inputTokens: 80, cachedInputTokens: 20, outputTokens: 14, reasoningTokens: 4 });
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('Propose edits.');
    expect(invocation.files).toEqual([]);
    const { config, home } = await fake.state();
    const agent = (config.agent as Record<string, AgentConfig>).skillopt as AgentConfig;
    expect(agent).toMatchObject({ prompt: 'You are the optimizer.', permission: { '*': 'deny' } });
    expect(Object.keys(agent.permission)).toEqual(['*']);
    expect(existsSync(home)).toBe(false);
  });

  it('asks for JSON in words and says it could not hold the reply to the schema; other unhonoured settings are warnings too', async () => {
    const { fake, model } = await modelFor({ transcript: opencodeTranscript('{"answer": "4"}') });
    const result = await model.generate({
      messages: [{ role: 'user', content: 'What is 2+2?' }],
      responseFormat: { type: 'json', name: 'answer', schema: { type: 'object' } },
      temperature: 0,
      purpose: 'judge',
    });
    expect((await fake.invocation()).stdin).toBe('What is 2+2?\n\nReply with one JSON value and nothing else.');
    expect(result.warnings?.map((warning) => (warning as { field?: string }).field)).toEqual(['responseFormat', 'temperature']);
  });

  it('tries a crashed call again, up to max_retries more times, and fails with the attempts made', async () => {
    const sleeps: number[] = [];
    const { model } = await modelFor({ transcript: [], crashSignal: 'SIGKILL' }, { max_retries: 1 }, sleeps);
    const error = await model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'reflect' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'process-crashed', retryable: true, attempts: 2 });
    expect(sleeps).toHaveLength(1);
  });

  it('turns a call that outlives timeout_ms into a provider-timeout', async () => {
    const { model } = await modelFor({ transcript: [], exitDelayMs: 60_000 }, { timeout_ms: 300, max_retries: 0 });
    const error = await model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'reflect' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-timeout', retryable: true, provider: 'opencode' });
  });
});
