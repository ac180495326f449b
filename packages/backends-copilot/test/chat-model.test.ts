import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GenerateRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, NO_TOOLS, type CopilotBackendConfigInput } from '../src/index';
import { copilotTranscript, fakeCopilot, usageReport, type FakeCopilotScenario } from './fake-copilot';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'copilot-chat-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-copilot-chat-0123456789abcdef';
const REQUEST: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You are the optimizer.' },
    { role: 'user', content: 'Propose an edit as JSON.' },
  ],
  purpose: 'reflect',
};

async function modelFor(scenario: FakeCopilotScenario, config: CopilotBackendConfigInput = {}, sleeps: number[] = []) {
  const fake = await fakeCopilot(directory, scenario);
  const backend = createBackend(
    { path: fake.command, ...config },
    {
      environment: { COPILOT_PROVIDER_API_KEY: SECRET },
      rateLimiters: createRateLimiterRegistry(),
      sleep: async (milliseconds) => void sleeps.push(milliseconds),
    },
  );
  return { fake, model: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }) };
}

const failing = (statusCode: number, errorType: string, message: string): FakeCopilotScenario => ({
  transcript: [
    { type: 'session.error', data: { errorType, statusCode, message } },
    { type: 'result', exitCode: 1 },
  ],
  exitCode: 1,
});

describe('copilot as a chat model', () => {
  it('answers from one copilot run in an empty folder with no tools and no custom instructions, the conversation on stdin', async () => {
    const { fake, model } = await modelFor({ transcript: copilotTranscript('{"edits":[]}'), usageReport: usageReport('sim-optimizer') });
    const result = await model.generate(REQUEST);
    expect(result).toEqual({
      text: '{"edits":[]}',
      usage: { inputTokens: 40, outputTokens: 7, cachedInputTokens: 10, cacheWriteInputTokens: 2 },
      finishReason: 'stop',
    });
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('[system]\nYou are the optimizer.\n\n---\n\nPropose an edit as JSON.');
    expect(invocation.files).toEqual([]);
    expect(invocation.argv).toEqual(expect.arrayContaining([`--available-tools=${NO_TOOLS}`, '--no-custom-instructions']));
    const homes = await fake.homes();
    expect(homes.copilotHomeExisted).toBe(true);
    expect(path.dirname(invocation.cwd)).toBe(path.dirname(homes.copilotHome));
  });

  it('asks for JSON in words, with the schema when there is one (and warns that it cannot hold the reply to it)', async () => {
    const schema = { type: 'object', properties: { edits: { type: 'array' } }, required: ['edits'] };
    const withSchema = await modelFor({ transcript: copilotTranscript('{"edits":[]}') });
    const result = await withSchema.model.generate({ ...REQUEST, responseFormat: { type: 'json', name: 'edits', schema } });
    expect(
      (await withSchema.fake.invocation()).stdin.endsWith(
        `\n\n---\n\nReply with one JSON value that matches this JSON Schema, and nothing else:\n${JSON.stringify(schema)}`,
      ),
    ).toBe(true);
    expect(result.warnings?.map((warning) => warning.field)).toEqual(['responseFormat']);
    const withoutSchema = await modelFor({ transcript: copilotTranscript('{}') });
    await withoutSchema.model.generate({ ...REQUEST, responseFormat: { type: 'json' } });
    expect((await withoutSchema.fake.invocation()).stdin.endsWith('\n\n---\n\nReply with one JSON value and nothing else.')).toBe(true);
  });

  it('sends the call’s reasoning effort, and warns about what copilot cannot honour', async () => {
    const { fake, model } = await modelFor({ transcript: copilotTranscript('ok') });
    const result = await model.generate({
      ...REQUEST,
      reasoningEffort: 'medium',
      temperature: 0.2,
      maxOutputTokens: 100,
      tools: [{ name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } }],
    });
    const argv = (await fake.invocation()).argv;
    expect(argv[argv.indexOf('--reasoning-effort') + 1]).toBe('medium');
    expect(result.warnings?.map((warning) => warning.field)).toEqual(['tools', 'temperature', 'maxOutputTokens']);
  });

  it('tries a transient failure again, up to max_retries more times, and marks the error that outlives them', async () => {
    const sleeps: number[] = [];
    const { model } = await modelFor(failing(500, 'query', 'retried 5 times; Last error: 500'), { max_retries: 2 }, sleeps);
    const error = await model.generate(REQUEST).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-unavailable', retryable: true, attempts: 3 });
    expect(sleeps).toHaveLength(2);
  });

  it('does not try a refused key again, and keeps the key out of the error', async () => {
    const sleeps: number[] = [];
    const { model } = await modelFor(failing(401, 'authentication', `Authentication failed (HTTP 401) for ${SECRET}`), {}, sleeps);
    const error = await model.generate(REQUEST).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(JSON.stringify((error as { toJSON(): unknown }).toJSON())).not.toContain(SECRET);
    expect(sleeps).toHaveLength(0);
  });

  it('calls a run that ran out of time a provider-timeout, as a chat call’s caller names it', async () => {
    const { model } = await modelFor({ exitDelayMs: 60_000 }, { timeout_ms: 300, max_retries: 0 });
    await expect(model.generate(REQUEST)).rejects.toMatchObject({ code: 'provider-timeout', retryable: true });
  });
});
