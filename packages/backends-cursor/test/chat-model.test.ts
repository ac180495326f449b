import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, renderChatPrompt, type CursorBackendConfigInput } from '../src/index';
import { cursorTranscript, fakeCursor } from './fake-cursor';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'cursor-chat-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function modelFor(scenario: FakeHarnessScenario, config: CursorBackendConfigInput = {}) {
  const fake = await fakeCursor(directory, scenario);
  const waits: number[] = [];
  const backend = createBackend(
    { path: fake.command, ...config },
    { environment: { CURSOR_API_KEY: 'key_chat' }, rateLimiters: createRateLimiterRegistry(), sleep: async (milliseconds) => void waits.push(milliseconds) },
  );
  return { fake, waits, model: backend.createChatModel({ role: 'optimizer', modelId: 'composer-1' }) };
}

describe('cursor as a chat model', () => {
  it('asks in Ask mode from an empty folder whose config denies reads, writes and MCP; the system text first in the prompt', async () => {
    const { fake, model } = await modelFor({ transcript: cursorTranscript('{"ok":true}', { inputTokens: 30, outputTokens: 5 }) });
    const result = await model.generate({
      messages: [
        { role: 'system', content: 'You review skills.' },
        { role: 'user', content: 'Is this skill fine?' },
      ],
      responseFormat: { type: 'json', schema: { type: 'object' } },
      temperature: 0.2,
      purpose: 'reflect',
    });
    expect(result).toMatchObject({ text: '{"ok":true}', usage: { inputTokens: 30, outputTokens: 5 }, finishReason: 'stop' });
    expect(result.warnings?.map((warning) => warning.type === 'unsupported-setting' && warning.field)).toEqual(['responseFormat', 'temperature']);
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('# Instructions\n\nYou review skills.\n\n# Request\n\nIs this skill fine?\n\nReply with one JSON value and nothing else.');
    expect(invocation.files).toEqual([]);
    expect(invocation.argv).toEqual(expect.arrayContaining(['--mode', 'ask', '--model', 'composer-1']));
    expect((await fake.runtime()).cliConfig.permissions).toEqual({ allow: [], deny: ['Read(**)', 'Write(**)', 'Mcp(*:*)'] });
  });

  it('tries a run without a usable result once more (the default), and then reports it', async () => {
    const { waits, model } = await modelFor({ transcript: cursorTranscript('x').slice(0, 3) });
    const error = await model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'judge' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'reply-empty', retryable: true });
    expect(waits).toHaveLength(1);
  });

  it('does not retry a refused key, and calls a harness that ran out of time a provider-timeout', async () => {
    const refused = await modelFor({ stderr: 'Error: not logged in\n', exitCode: 1 });
    const error = await refused.model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'judge' }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false });
    expect(refused.waits).toHaveLength(0);
    const stalled = await modelFor({ exitDelayMs: 60_000 }, { timeout_ms: 300, max_retries: 0 });
    const timedOut = await stalled.model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'judge' }).catch((caught: unknown) => caught);
    expect(timedOut).toMatchObject({ code: 'provider-timeout', retryable: true });
  });
});

describe('renderChatPrompt', () => {
  it('writes a longer conversation as a labelled transcript and notes left-out images', () => {
    const rendered = renderChatPrompt(
      [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look' },
            { type: 'image', image: 'https://example.com/a.png' },
          ],
        },
        { role: 'assistant', content: 'Seen.' },
        { role: 'user', content: 'And now?' },
      ],
      { jsonInWords: false },
    );
    expect(rendered.prompt).toBe(
      'The conversation so far:\n\nUser:\nLook\n\nAssistant:\nSeen.\n\nUser:\nAnd now?\n\nReply to the last message as the assistant.',
    );
    expect(rendered.leftOutImages).toBe(true);
  });
});
