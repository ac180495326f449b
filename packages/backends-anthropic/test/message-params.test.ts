import type { GenerateRequest } from '@skillopt/contract';
import { anthropicBackendConfigSchema, buildMessageParams, resolveRoleSettings, usageFromAnthropic } from '../src/index';
import { createThinkingMemory } from '../src/thinking-memory';
import { messageParamsWarnings } from '../src/message-params';

const settings = (config: Record<string, unknown> = {}) => resolveRoleSettings(anthropicBackendConfigSchema.parse(config), 'target');
const build = (request: Partial<GenerateRequest>, config: Record<string, unknown> = {}, memory = createThinkingMemory()) =>
  buildMessageParams({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', ...request } as GenerateRequest, settings(config), memory);

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

describe('building a Messages API request', () => {
  it('puts every system message in its own block, with the cache breakpoint on the last', () => {
    const { params } = build({
      messages: [
        { role: 'system', content: 'You are careful.' },
        { role: 'system', content: '## Skill\n- rule' },
        { role: 'user', content: 'q' },
      ],
    });
    expect(params.system).toEqual([
      { type: 'text', text: 'You are careful.' },
      { type: 'text', text: '## Skill\n- rule', cache_control: { type: 'ephemeral' } },
    ]);
    expect(params.messages).toEqual([{ role: 'user', content: [{ type: 'text', text: 'q' }] }]);
  });

  it('asks for JSON in words after the cached prefix, so the prefix stays the same', () => {
    const messages: GenerateRequest['messages'] = [
      { role: 'system', content: 'skill' },
      { role: 'user', content: 'q' },
    ];
    const plain = build({ messages }).params;
    const json = build({
      messages,
      responseFormat: { type: 'json', name: 'edits', schema: { type: 'object', properties: { edits: { type: 'array' } } } },
    }).params;
    expect(json.system?.[0]).toEqual(plain.system?.[0]);
    const instruction = (json.system as Array<{ text: string; cache_control?: unknown }>)[1];
    expect(instruction?.cache_control).toBeUndefined();
    expect(instruction?.text).toMatch(/single JSON value/);
    expect(instruction?.text).toContain('"edits"');
  });

  it('maps images: data URLs and bare base64 to base64 sources, https URLs to url sources', () => {
    const { params } = build({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'image', image: `data:image/png;base64,${PNG}` },
            { type: 'image', image: PNG },
            { type: 'image', image: '/9j/4AAQSkZJRg==', mediaType: 'image/jpeg', detail: 'high' },
            { type: 'image', image: 'https://example.com/page-1.png' },
            { type: 'text', text: 'What does the page say?' },
          ],
        },
      ],
    });
    expect(params.messages[0]?.content).toEqual([
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } },
      { type: 'image', source: { type: 'base64', media_type: 'image/jpeg', data: '/9j/4AAQSkZJRg==' } },
      { type: 'image', source: { type: 'url', url: 'https://example.com/page-1.png' } },
      { type: 'text', text: 'What does the page say?' },
    ]);
    expect(() => build({ messages: [{ role: 'user', content: [{ type: 'image', image: 'data:image/tiff;base64,AAAA' }] }] })).toThrow(/image\/tiff/);
    expect(() => build({ messages: [{ role: 'user', content: [{ type: 'image', image: 'AAAA' }] }] })).toThrow(/mediaType/);
  });

  it('maps tool calls and tool results, merging turns as the API requires', () => {
    const { params } = build({
      tools: [{ name: 'lookup', description: '', inputSchema: { type: 'object', properties: { cell: { type: 'string' } } } }],
      messages: [
        { role: 'user', content: 'Sum the column.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool-call', toolCallId: 'toolu_1', toolName: 'lookup', input: { cell: 'A1' } },
            { type: 'tool-call', toolCallId: 'toolu_2', toolName: 'lookup', input: { cell: 'A2' } },
          ],
        },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_1', toolName: 'lookup', output: '3' }] },
        { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_2', toolName: 'lookup', output: 'not a number', isError: true }] },
        { role: 'user', content: 'Go on.' },
      ],
    });
    expect(params.tools).toEqual([{ name: 'lookup', input_schema: { type: 'object', properties: { cell: { type: 'string' } } } }]);
    expect(params.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'Sum the column.' }] },
      {
        role: 'assistant',
        content: [
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { cell: 'A1' } },
          { type: 'tool_use', id: 'toolu_2', name: 'lookup', input: { cell: 'A2' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '3' },
          { type: 'tool_result', tool_use_id: 'toolu_2', content: 'not a number', is_error: true },
          { type: 'text', text: 'Go on.' },
        ],
      },
    ]);
  });

  it('refuses a request with nothing but system messages', () => {
    expect(() => build({ messages: [{ role: 'system', content: 'only a skill' }] })).toThrow(/at least one user or assistant message/);
  });

  it('sets max_tokens from the call, else from max_output_tokens; sends no sampling parameters', () => {
    const { params } = build({ maxOutputTokens: 300, temperature: 0.7, reasoningEffort: 'high' });
    expect(params.max_tokens).toBe(300);
    expect(params).not.toHaveProperty('temperature');
    expect(params).not.toHaveProperty('output_config');
    expect(build({}).params.max_tokens).toBe(16384);
  });

  it('fits the thinking budget under the call’s cap, and drops it when it cannot or when asked', () => {
    const config = { thinking_budget_tokens: 8000, max_output_tokens: 32000 };
    expect(build({}, config).params.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect(build({ maxOutputTokens: 6000 }, config).params.thinking).toEqual({ type: 'enabled', budget_tokens: 3000 });
    expect(build({ maxOutputTokens: 1500 }, config).params.thinking).toBeUndefined();
    expect(build({ reasoningEffort: 'none' }, config).params.thinking).toBeUndefined();
    // Tool calls whose thinking this model never saw: thinking off rather than a rejected request.
    const toolTurn: GenerateRequest['messages'] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'toolu_unknown', toolName: 't', input: {} }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'toolu_unknown', toolName: 't', output: 'r' }] },
    ];
    expect(build({ messages: toolTurn }, config).params.thinking).toBeUndefined();
    const memory = createThinkingMemory();
    memory.remember(['toolu_unknown'], [{ type: 'thinking', thinking: 't', signature: 's' }]);
    const replayed = build({ messages: toolTurn }, config, memory).params;
    expect(replayed.thinking).toEqual({ type: 'enabled', budget_tokens: 8000 });
    expect((replayed.messages[1]?.content as Array<{ type: string }> | undefined)?.[0]?.type).toBe('thinking');
  });

  it('forgets the oldest thinking beyond its capacity', () => {
    const memory = createThinkingMemory(2);
    for (const id of ['a', 'b', 'c']) memory.remember([id], [{ type: 'thinking', thinking: id, signature: id }]);
    expect(memory.recall('a')).toBeUndefined();
    expect(memory.recall('c')).toBeDefined();
  });
});

describe('usage', () => {
  it('counts cache reads and writes inside inputTokens, and each as its own field', () => {
    expect(usageFromAnthropic({ input_tokens: 10, cache_creation_input_tokens: 200, cache_read_input_tokens: 3000, output_tokens: 50 })).toEqual({
      inputTokens: 3210,
      outputTokens: 50,
      cachedInputTokens: 3000,
      cacheWriteInputTokens: 200,
    });
    expect(usageFromAnthropic({ input_tokens: 10, output_tokens: 5 })).toEqual({ inputTokens: 10, outputTokens: 5 });
    expect(usageFromAnthropic({ input_tokens: 10, output_tokens: 5, output_tokens_details: { thinking_tokens: 3 } }).reasoningTokens).toBe(3);
  });
});

describe('what a call asks for and the Messages API is not sent', () => {
  const ask = (extra: Partial<GenerateRequest>): GenerateRequest => ({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', ...extra });

  it('warns of a temperature, a reasoning effort and a JSON Schema, and of nothing else', () => {
    expect(
      messageParamsWarnings(ask({ temperature: 0.2, reasoningEffort: 'high', responseFormat: { type: 'json', schema: { type: 'object' } } })).map(
        (warning) => warning.field,
      ),
    ).toEqual(['temperature', 'reasoningEffort', 'responseFormat.schema']);
    expect(messageParamsWarnings(ask({ reasoningEffort: 'none', responseFormat: { type: 'json' } }))).toEqual([]);
  });
});
