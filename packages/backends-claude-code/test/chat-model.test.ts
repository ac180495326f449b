import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { GenerateRequest } from '@skillopt/contract';
import { buildChatPrompt, createBackend } from '../src/index';
import { FIXTURES, fakeClaude } from './fake-claude';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'skillopt-claude-chat-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

async function generate(request: Partial<GenerateRequest>, fixture = 'stdout-print-json.jsonl') {
  const cli = await fakeClaude(directory, { transcriptFile: path.join(FIXTURES, fixture) });
  const model = createBackend(
    { path: cli.path },
    { environment: { ANTHROPIC_API_KEY: 'sk-ant-x' }, rateLimiters: createRateLimiterRegistry(), runsAsRoot: false },
  ).createChatModel({
    role: 'optimizer',
  });
  const result = await model.generate({ messages: [{ role: 'user', content: 'Say hi.' }], purpose: 'reflect', ...request });
  return { result, invocation: await cli.invocation() };
}

describe('Claude Code as a chat model', () => {
  it('runs with every tool off, no settings or skills, our system prompt file, JSON output, the prompt on stdin', async () => {
    const { result, invocation } = await generate({
      messages: [
        { role: 'system', content: 'Be terse.' },
        { role: 'user', content: 'Say hi.' },
      ],
    });
    const argv = invocation.argv.slice(1);
    expect(option(argv, '--output-format')).toBe('json');
    expect(option(argv, '--tools')).toBe('');
    expect(option(argv, '--setting-sources')).toBe('');
    expect(argv).toEqual(expect.arrayContaining(['-p', '--no-session-persistence', '--strict-mcp-config', '--disable-slash-commands']));
    expect(option(argv, '--model')).toBe('claude-sonnet-4-6');
    expect(option(argv, '--system-prompt-file')).toMatch(/system-prompt\.txt$/);
    expect(argv).not.toContain('--json-schema');
    expect(invocation.stdin).toBe('Say hi.');
    expect(invocation.files).toEqual([]);
    expect(result).toMatchObject({
      text: 'hi',
      finishReason: 'stop',
      usage: { inputTokens: 22, outputTokens: 6 },
      providerMetadata: { turns: 2, models: ['claude-opus-4-8'] },
    });
  });

  it('asks for a reply schema with --json-schema and answers with the structured output', async () => {
    const schema = { type: 'object', properties: { content: { type: 'string' } }, required: ['content'] };
    const { result, invocation } = await generate({ responseFormat: { type: 'json', schema } }, 'stdout-print-json-schema.jsonl');
    expect(JSON.parse(option(invocation.argv, '--json-schema') ?? '')).toEqual(schema);
    expect(JSON.parse(result.text)).toEqual({ content: 'hi', tool_calls: [] });
  });

  it('maps effort and the output cap, and warns about what it cannot honour', async () => {
    const { result, invocation } = await generate({
      reasoningEffort: 'minimal',
      maxOutputTokens: 2000,
      temperature: 0.2,
      tools: [{ name: 'search', description: 'Search', inputSchema: { type: 'object' } }],
    });
    expect(option(invocation.argv, '--effort')).toBe('low');
    expect(invocation.environment).toContain('CLAUDE_CODE_MAX_OUTPUT_TOKENS');
    expect(result.warnings?.map((warning) => warning.field)).toEqual(['tools', 'temperature']);
    const off = await generate({ reasoningEffort: 'none' });
    expect(off.invocation.argv).not.toContain('--effort');
    expect(off.invocation.environment).toContain('MAX_THINKING_TOKENS');
  });
});

describe('the chat prompt', () => {
  it('is the one user message as it is, or the conversation written out, ending with what to answer', () => {
    expect(buildChatPrompt([{ role: 'user', content: 'Q' }], { jsonInWords: false })).toEqual({
      system: 'You are a helpful assistant. Answer the request directly.',
      user: 'Q',
      leftOutImages: false,
    });
    const prompt = buildChatPrompt(
      [
        { role: 'system', content: 'S1' },
        { role: 'system', content: 'S2' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'first' },
            { type: 'image', image: 'data:image/png;base64,AAAA' },
          ],
        },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'search', input: { q: 'x' } }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'search', output: 'found' }] },
        { role: 'user', content: 'second' },
      ],
      { jsonInWords: true },
    );
    expect(prompt.system).toBe('S1\n\nS2');
    expect(prompt.leftOutImages).toBe(true);
    expect(prompt.user).toBe(
      'The conversation so far:\n\nUser:\nfirst\n\nAssistant:\n[asked for search (c1) with {"q":"x"}]\n\nTool result:\n[search c1]\nfound\n\nUser:\nsecond\n\nAnswer the last user message.\n\nReply with JSON only, no other text.',
    );
  });
});
