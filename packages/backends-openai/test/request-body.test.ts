import { SkillOptError, type GenerateRequest } from '@skillopt/contract';
import {
  buildRequestBody,
  requestWarnings,
  openAiBackendConfigSchema,
  resolveModelSettings,
  wireReasoningEffort,
  type OpenAiBackendConfigInput,
} from '../src/index';

function settingsFor(config: OpenAiBackendConfigInput, modelId: string, environment: Record<string, string> = { OPENAI_API_KEY: 'k', MINIMAX_API_KEY: 'k' }) {
  return resolveModelSettings(openAiBackendConfigSchema.parse(config), { role: 'target', modelId }, environment).settings;
}

const ask = (extra: Partial<GenerateRequest> = {}): GenerateRequest => ({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', ...extra });

describe('the Chat Completions request', () => {
  it('sends image parts as image_url with their detail, bare base64 as a data URL', () => {
    const body = buildRequestBody(
      settingsFor({}, 'gpt-4.1'),
      ask({
        messages: [
          {
            role: 'user',
            content: [
              { type: 'text', text: 'What does the form say?' },
              { type: 'image', image: 'https://example.com/page-1.png', detail: 'high' },
              { type: 'image', image: 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==' },
              { type: 'image', image: 'AAAA', mediaType: 'image/tiff', detail: 'low' },
            ],
          },
        ],
      }),
    );
    expect(body.messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'text', text: 'What does the form say?' },
          { type: 'image_url', image_url: { url: 'https://example.com/page-1.png', detail: 'high' } },
          { type: 'image_url', image_url: { url: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) } },
          { type: 'image_url', image_url: { url: 'data:image/tiff;base64,AAAA', detail: 'low' } },
        ],
      },
    ]);
  });

  it('refuses bare base64 of an unknown format without a media type', () => {
    expect(() => buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ messages: [{ role: 'user', content: [{ type: 'image', image: 'AAAA' }] }] }))).toThrow(
      expect.objectContaining({ code: 'data-invalid' }),
    );
    expect(SkillOptError).toBeDefined();
  });

  it('marks a failed tool result in its text, one tool message per result', () => {
    const body = buildRequestBody(
      settingsFor({}, 'gpt-4.1'),
      ask({
        messages: [
          { role: 'user', content: 'go' },
          {
            role: 'assistant',
            content: [
              { type: 'text', text: 'Looking both up.' },
              { type: 'tool-call', toolCallId: 'a', toolName: 'sheet', input: { cell: 'A1' } },
              { type: 'tool-call', toolCallId: 'b', toolName: 'sheet', input: { cell: 'Z9' } },
            ],
          },
          {
            role: 'tool',
            content: [
              { type: 'tool-result', toolCallId: 'a', toolName: 'sheet', output: '42' },
              { type: 'tool-result', toolCallId: 'b', toolName: 'sheet', output: 'no such cell', isError: true },
            ],
          },
        ],
      }),
    );
    expect(body.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: 'Looking both up.',
        tool_calls: [
          { id: 'a', type: 'function', function: { name: 'sheet', arguments: '{"cell":"A1"}' } },
          { id: 'b', type: 'function', function: { name: 'sheet', arguments: '{"cell":"Z9"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'a', content: '42' },
      { role: 'tool', tool_call_id: 'b', content: 'Error: no such cell' },
    ]);
  });

  it('asks for JSON as json_schema with a schema, json_object without, or not at all when switched off', () => {
    const schema = { type: 'object', properties: { edits: { type: 'array' } }, required: ['edits'] };
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ responseFormat: { type: 'json', name: 'reflect edits', schema } })).response_format).toEqual({
      type: 'json_schema',
      json_schema: { name: 'reflect_edits', schema, strict: false },
    });
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ responseFormat: { type: 'json' } })).response_format).toEqual({ type: 'json_object' });
    expect(buildRequestBody(settingsFor({ json_response_format: false }, 'gpt-4.1'), ask({ responseFormat: { type: 'json' } }))).not.toHaveProperty(
      'response_format',
    );
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ responseFormat: { type: 'text' } }))).not.toHaveProperty('response_format');
  });

  it('caps output tokens by max_tokens and names them as the server wants', () => {
    const qwen = settingsFor({ preset: 'qwen', max_tokens: '8000' }, 'Qwen/Qwen3.5-4B');
    expect(buildRequestBody(qwen, ask({ maxOutputTokens: 16384 })).max_tokens).toBe(8000);
    expect(buildRequestBody(qwen, ask({ maxOutputTokens: 100 })).max_tokens).toBe(100);
    expect(buildRequestBody(qwen, ask()).max_tokens).toBe(8000);
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ maxOutputTokens: 100 }))).toMatchObject({ max_completion_tokens: 100 });
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask())).not.toHaveProperty('max_completion_tokens');
  });

  it('sends temperature to chat models only, and reasoning effort to reasoning models only', () => {
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ temperature: 0.3, reasoningEffort: 'high' }))).toMatchObject({ temperature: 0.3 });
    expect(buildRequestBody(settingsFor({}, 'gpt-4.1'), ask({ reasoningEffort: 'high' }))).not.toHaveProperty('reasoning_effort');
    const o3 = buildRequestBody(settingsFor({}, 'o3'), ask({ temperature: 0.3, reasoningEffort: 'high' }));
    expect(o3).toMatchObject({ reasoning_effort: 'high' });
    expect(o3).not.toHaveProperty('temperature');
    expect(buildRequestBody(settingsFor({ preset: 'qwen', temperature: 'none' }, 'q'), ask())).not.toHaveProperty('temperature');
    expect(buildRequestBody(settingsFor({ preset: 'qwen' }, 'q'), ask())).toMatchObject({ temperature: 0.7 });
  });

  it('adjusts the effort to what a model accepts', () => {
    expect(wireReasoningEffort('o4-mini', 'none')).toBe('low');
    expect(wireReasoningEffort('o3', 'minimal')).toBe('low');
    expect(wireReasoningEffort('gpt-5-nano', 'none')).toBe('minimal');
    expect(wireReasoningEffort('gpt-5.1', 'none')).toBe('none');
    expect(wireReasoningEffort('gpt-5.5', 'high')).toBe('high');
  });

  it('sends the thinking switch in each server dialect, and nothing for server_default', () => {
    expect(buildRequestBody(settingsFor({ preset: 'qwen' }, 'q'), ask())).not.toHaveProperty('chat_template_kwargs');
    expect(buildRequestBody(settingsFor({ preset: 'qwen', thinking_mode: 'enabled' }, 'q'), ask()).chat_template_kwargs).toEqual({ enable_thinking: true });
    expect(buildRequestBody(settingsFor({ preset: 'qwen', thinking_mode: 'disabled' }, 'q'), ask()).chat_template_kwargs).toEqual({ enable_thinking: false });
    const dashscope = buildRequestBody(
      settingsFor({ preset: 'qwen', thinking_mode: 'disabled', base_url: 'https://dashscope.aliyuncs.com/compatible-mode/v1' }, 'qwen-plus'),
      ask(),
    );
    expect(dashscope.enable_thinking).toBe(false);
    expect(dashscope).not.toHaveProperty('chat_template_kwargs');
    expect(buildRequestBody(settingsFor({ preset: 'minimax' }, 'MiniMax-M3'), ask()).thinking).toEqual({ type: 'disabled' });
    expect(buildRequestBody(settingsFor({ preset: 'minimax', enable_thinking: true }, 'MiniMax-M3'), ask()).thinking).toEqual({ type: 'adaptive' });
    expect(buildRequestBody(settingsFor({ preset: 'minimax' }, 'MiniMax-M2.5'), ask()).thinking).toEqual({ type: 'adaptive' });
    expect(buildRequestBody(settingsFor({ thinking_mode: 'enabled' }, 'gpt-4.1'), ask())).not.toHaveProperty('chat_template_kwargs');
  });
});

describe('what a request asks for and is not sent', () => {
  it('warns of a temperature for a reasoning model and a reasoning effort for a chat model, and is silent otherwise', () => {
    expect(requestWarnings(settingsFor({}, 'o3'), ask({ temperature: 0.3 }))).toEqual([
      expect.objectContaining({ type: 'unsupported-setting', field: 'temperature' }),
    ]);
    expect(requestWarnings(settingsFor({}, 'gpt-4.1'), ask({ reasoningEffort: 'low' }))).toEqual([expect.objectContaining({ field: 'reasoningEffort' })]);
    expect(requestWarnings(settingsFor({}, 'gpt-4.1'), ask({ temperature: 0.3, reasoningEffort: 'none' }))).toEqual([]);
    expect(requestWarnings(settingsFor({}, 'o3'), ask({ reasoningEffort: 'high' }))).toEqual([]);
  });
});
