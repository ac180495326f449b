import { openAiBackendConfigSchema } from '../src/index';

/*
 * The section must accept exactly what the translation of the original's configs produces with
 * this package's declaration (original-config-format.ts, tested end to end in
 * original-config.test.ts), and refuse what it does not know.
 */

const parse = (input: unknown) => openAiBackendConfigSchema.safeParse(input);

describe('the backends.openai config schema', () => {
  it.each([
    ['the original default (Azure)', { preset: 'azure' }],
    [
      'shared and per-role Azure keys',
      {
        preset: 'azure',
        endpoint: 'https://shared.openai.azure.com',
        api_version: '2024-12-01-preview',
        ad_scope: 'https://cognitiveservices.azure.com/.default',
        timeout_seconds: 300,
        target: { endpoint: 'https://target.openai.azure.com' },
        optimizer: { managed_identity_client_id: 'abc' },
      },
    ],
    [
      'roles with different presets',
      {
        timeout_seconds: 300,
        optimizer: { preset: 'azure', endpoint: 'https://x.openai.azure.com', api_version: '2024-12-01-preview', timeout_seconds: 300 },
        target: { preset: 'qwen', base_url: 'http://localhost:8000/v1', thinking_mode: 'disabled', timeout_seconds: 300 },
      },
    ],
    ['a MiniMax target with a region', { optimizer: { preset: 'azure' }, target: { preset: 'minimax', region: 'global_en' } }],
    [
      "MiniMax with the original's shipped string values",
      { preset: 'minimax', temperature: '0.7', max_tokens: '8000', enable_thinking: 'false', region: 'cn-zh', model: 'MiniMax-M3' },
    ],
    ['Qwen with the legacy thinking switch', { preset: 'qwen', enable_thinking: 'true', temperature: 'none', use_max_completion_tokens: 'false' }],
    [
      'an OpenAI-compatible server',
      { preset: 'openai_compatible', base_url: 'http://127.0.0.1:8000/v1', max_concurrency: 4, requests_per_minute: 60, tokens_per_minute: 100000 },
    ],
  ])('accepts %s', (_name, input) => {
    const result = parse(input);
    expect(result.error?.issues).toBeUndefined();
    expect(result.success).toBe(true);
  });

  it("reads the original's strings as numbers and booleans, and normalises spellings", () => {
    const result = parse({ preset: 'MiniMax_Chat', temperature: '0.7', max_tokens: '8000', enable_thinking: 'false', region: 'CN-ZH' });
    expect(result.data).toEqual({ preset: 'minimax', temperature: 0.7, max_tokens: 8000, enable_thinking: false, region: 'cn_zh' });
    expect(parse({ preset: 'llama-cpp' }).data?.preset).toBe('llamacpp');
    expect(parse({ preset: 'compat' }).data?.preset).toBe('openai_compatible');
    expect(parse({ preset: 'azure', auth_mode: 'aad' }).data?.auth_mode).toBe('entra');
    expect(parse({ preset: 'qwen', temperature: 'off' }).data?.temperature).toBeNull();
  });

  it('records the Qwen thinking policy in the run config when nobody chose one, idempotently', () => {
    const shared = parse({ preset: 'qwen' }).data;
    expect(shared).toEqual({ preset: 'qwen', thinking_mode: 'server_default' });
    expect(parse(shared).data).toEqual(shared);
    const perRole = parse({ optimizer: { preset: 'azure' }, target: { preset: 'qwen', base_url: 'http://localhost:8000/v1' } }).data;
    expect(perRole?.target).toEqual({ preset: 'qwen', base_url: 'http://localhost:8000/v1', thinking_mode: 'server_default' });
    expect(perRole?.optimizer).toEqual({ preset: 'azure' });
    expect(parse({ preset: 'qwen', enable_thinking: true }).data).toEqual({ preset: 'qwen', enable_thinking: true });
  });

  it('refuses unknown keys (so the CLI can suggest the nearest), secrets and bad values', () => {
    expect(parse({ base_ur: 'http://x' }).success).toBe(false);
    expect(parse({ api_key: 'sk-something' }).success).toBe(false);
    expect(parse({ target: { api_key: 'sk-something' } }).success).toBe(false);
    expect(parse({ preset: 'bedrock' }).success).toBe(false);
    expect(parse({ thinking_mode: 'sometimes' }).success).toBe(false);
    expect(parse({ base_url: 'localhost:8000' }).success).toBe(false);
    expect(parse({ api_key_env: 'sk-abc def' }).success).toBe(false);
    expect(parse({ region: 'mars' }).success).toBe(false);
    expect(parse({ preset: 'azure', auth_mode: 'openai_compatible' }).error?.issues[0]?.message).toMatch(/preset: openai_compatible/);
    expect(parse({ max_attempts: 0 }).success).toBe(false);
    expect(parse({ temperature: 3 }).success).toBe(false);
  });
});
