import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { GenerateRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type CodexBackendConfigInput } from '../src/index';
import { codexTranscript, fakeCodex } from './fake-codex';

// Each test runs the fake Codex CLI as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'codex-chat-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-codex-chat-0123456789abcdef';
const REQUEST: GenerateRequest = {
  messages: [
    { role: 'system', content: 'You are the optimizer.' },
    { role: 'user', content: 'Propose an edit as JSON.' },
  ],
  purpose: 'reflect',
};

async function modelFor(scenario: FakeHarnessScenario, config: CodexBackendConfigInput = {}, sleeps: number[] = []) {
  const fake = await fakeCodex(directory, scenario);
  const backend = createBackend(
    { path: fake.command, ...config },
    { environment: { OPENAI_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry(), sleep: async (milliseconds) => void sleeps.push(milliseconds) },
  );
  return { fake, model: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }) };
}

describe('codex as a chat model', () => {
  it('answers from one codex exec in an empty read-only folder with its tools off, the conversation on stdin', async () => {
    const { fake, model } = await modelFor({ transcript: codexTranscript('{"edits":[]}') });
    const result = await model.generate(REQUEST);
    expect(result).toEqual({
      text: '{"edits":[]}',
      usage: { inputTokens: 40, cachedInputTokens: 10, outputTokens: 7, reasoningTokens: 2 },
      finishReason: 'stop',
    });
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('Propose an edit as JSON.');
    expect(invocation.argv).toContain('developer_instructions="You are the optimizer."');
    expect(invocation.files).toEqual([]);
    expect(invocation.argv[invocation.argv.indexOf('--sandbox') + 1]).toBe('read-only');
    expect(invocation.argv).toEqual(expect.arrayContaining(['features.shell_tool=false', 'skills.include_instructions=false']));
    expect(invocation.argv).not.toContain('--output-schema');
    const homes = await fake.homes();
    expect(homes.codexHomeExisted).toBe(true);
    expect(path.dirname(invocation.cwd)).toBe(path.dirname(homes.codexHome));
  });

  it('holds the reply to the request’s JSON Schema through --output-schema; a JSON request without one is asked for in words', async () => {
    const schema = { type: 'object', properties: { edits: { type: 'array' } }, required: ['edits'], additionalProperties: false };
    const withSchema = await modelFor({ transcript: codexTranscript('{"edits":[]}') });
    await withSchema.model.generate({ ...REQUEST, responseFormat: { type: 'json', name: 'edits', schema } });
    expect(JSON.parse(await withSchema.fake.outputSchema())).toEqual(schema);
    const withoutSchema = await modelFor({ transcript: codexTranscript('{}') });
    await withoutSchema.model.generate({ ...REQUEST, responseFormat: { type: 'json' } });
    const invocation = await withoutSchema.fake.invocation();
    expect(invocation.stdin.endsWith('\n\nReply with one JSON value and nothing else.')).toBe(true);
    expect(invocation.argv).not.toContain('--output-schema');
  });

  it('sends the call’s reasoning effort, and warns about what codex exec cannot honour', async () => {
    const { fake, model } = await modelFor({ transcript: codexTranscript('ok') });
    const result = await model.generate({
      ...REQUEST,
      reasoningEffort: 'medium',
      temperature: 0.2,
      maxOutputTokens: 100,
      tools: [{ name: 'lookup', description: 'Looks up.', inputSchema: { type: 'object' } }],
    });
    expect((await fake.invocation()).argv).toContain('model_reasoning_effort="medium"');
    expect(result.warnings?.map((warning) => warning.field)).toEqual(['tools', 'temperature', 'maxOutputTokens']);
  });

  it('tries a transient failure again, up to max_retries more times, and marks the error that outlives them', async () => {
    const message = 'unexpected status 503 Service Unavailable: busy';
    const failing = { transcript: [{ type: 'turn.failed', error: { message } }], exitCode: 1 };
    const sleeps: number[] = [];
    const { model } = await modelFor(failing, { max_retries: 2 }, sleeps);
    const error = await model.generate(REQUEST).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-unavailable', retryable: true, attempts: 3 });
    expect(sleeps).toHaveLength(2);
  });

  it('does not try a refused key again, and keeps the key out of the error', async () => {
    const message = `unexpected status 401 Unauthorized: Incorrect API key provided: ${SECRET}`;
    const sleeps: number[] = [];
    const { model } = await modelFor({ transcript: [{ type: 'turn.failed', error: { message } }], exitCode: 1 }, {}, sleeps);
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
