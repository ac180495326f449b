import { SkillOptError } from '@skillopt/contract';
import { openAiBackendConfigSchema, resolveModelSettings, type OpenAiBackendConfigInput } from '../src/index';
import type { ModelRequest } from '@skillopt/contract';

function resolve(config: OpenAiBackendConfigInput, request: ModelRequest, environment: Record<string, string> = {}) {
  return resolveModelSettings(openAiBackendConfigSchema.parse(config), request, environment);
}

function errorOf(run: () => unknown): SkillOptError {
  try {
    run();
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected an error');
}

describe('resolving one role', () => {
  it('defaults to the OpenAI API with OPENAI_API_KEY', () => {
    const { settings, credentials } = resolve({}, { role: 'target', modelId: 'gpt-4.1' }, { OPENAI_API_KEY: 'sk-shared' });
    expect(settings).toMatchObject({
      preset: 'openai',
      provider: 'openai',
      modelId: 'gpt-4.1',
      wireModel: 'gpt-4.1',
      baseUrl: 'https://api.openai.com/v1',
      apiKeyVariable: 'OPENAI_API_KEY',
      maxTokensParameter: 'max_completion_tokens',
      reasoningModel: false,
      timeoutMs: 300_000,
      maxAttempts: 5,
    });
    expect(credentials.apiKey).toBe('sk-shared');
    // The settings hold no secret.
    expect(JSON.stringify(settings)).not.toContain('sk-shared');
  });

  it('prefers a role-specific key variable, and api_key_env over the chain', () => {
    const environment = { OPENAI_API_KEY: 'sk-shared', OPTIMIZER_OPENAI_API_KEY: 'sk-optimizer', MY_KEY: 'sk-mine' };
    expect(resolve({}, { role: 'optimizer', modelId: 'o3' }, environment).credentials.apiKey).toBe('sk-optimizer');
    expect(resolve({}, { role: 'target', modelId: 'o3' }, environment).credentials.apiKey).toBe('sk-shared');
    expect(resolve({ target: { api_key_env: 'MY_KEY' } }, { role: 'target', modelId: 'o3' }, environment).settings.apiKeyVariable).toBe('MY_KEY');
    expect(errorOf(() => resolve({ api_key_env: 'MISSING_KEY' }, { role: 'target' }, environment)).message).toContain('MISSING_KEY');
  });

  it('refuses to start without a key for a hosted API, naming the variables (never guessing one)', () => {
    const error = errorOf(() => resolve({ preset: 'deepseek' }, { role: 'target' }, {}));
    expect(error.code).toBe('config-invalid');
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('TARGET_DEEPSEEK_API_KEY or DEEPSEEK_API_KEY');
  });

  it('lets local servers go without a key, and never sends OPENAI_API_KEY to them', () => {
    const { settings, credentials } = resolve({ preset: 'ollama' }, { role: 'target', modelId: 'llama3.2' }, { OPENAI_API_KEY: 'sk-openai' });
    expect(settings.baseUrl).toBe('http://localhost:11434/v1');
    expect(credentials.apiKey).toBeUndefined();
    expect(
      resolve({ preset: 'openai_compatible', base_url: 'http://127.0.0.1:9/v1' }, { role: 'target', modelId: 'm' }, { OPENAI_API_KEY: 'sk-openai' }).credentials
        .apiKey,
    ).toBeUndefined();
  });

  it('takes base_url alone (no preset) as an OpenAI-compatible server: key optional, never OPENAI_API_KEY', () => {
    const alone = resolve({ base_url: 'http://127.0.0.1:8787/v1' }, { role: 'target', modelId: 'sim-target' }, { OPENAI_API_KEY: 'sk-openai' });
    expect(alone.settings).toMatchObject({ preset: 'openai_compatible', provider: 'openai-compatible', maxTokensParameter: 'max_tokens' });
    expect(alone.credentials.apiKey).toBeUndefined();
    expect(alone.settings.apiKeyVariableToSet).toBe('OPENAI_COMPATIBLE_API_KEY');
    const keyed = resolve({ base_url: 'http://127.0.0.1:8787/v1' }, { role: 'target', modelId: 'sim-target' }, { OPENAI_COMPATIBLE_API_KEY: 'local-key' });
    expect(keyed.credentials.apiKey).toBe('local-key');
    expect(keyed.settings.apiKeyVariable).toBe('OPENAI_COMPATIBLE_API_KEY');
    // OpenAI's own host stays the openai preset, and a preset named explicitly wins over the URL.
    expect(resolve({ base_url: 'https://api.openai.com/v1' }, { role: 'target' }, { OPENAI_API_KEY: 'k' }).settings.preset).toBe('openai');
    expect(errorOf(() => resolve({ preset: 'openai', base_url: 'http://127.0.0.1:8787/v1' }, { role: 'target' })).message).toContain('OPENAI_API_KEY');
  });

  it('takes the base URL from the config, then the environment, then the preset', () => {
    const environment = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://env.example/v1', TARGET_VLLM_BASE_URL: 'http://gpu-box:8000/v1/' };
    expect(resolve({ base_url: 'http://config.example/v1/' }, { role: 'target', modelId: 'm' }, environment).settings.baseUrl).toBe('http://config.example/v1');
    expect(resolve({}, { role: 'target' }, environment).settings.baseUrl).toBe('http://env.example/v1');
    expect(resolve({ preset: 'vllm' }, { role: 'target', modelId: 'm' }, environment).settings.baseUrl).toBe('http://gpu-box:8000/v1');
    expect(resolve({ preset: 'vllm' }, { role: 'optimizer', modelId: 'm' }, environment).settings.baseUrl).toBe('http://localhost:8000/v1');
  });

  it('needs an explicit server for openai_compatible and a model where the preset has no default', () => {
    expect(errorOf(() => resolve({ preset: 'openai_compatible' }, { role: 'target', modelId: 'm' })).message).toContain('base_url');
    expect(errorOf(() => resolve({ preset: 'vllm' }, { role: 'optimizer' })).message).toContain('model.optimizer');
  });

  it('uses the run config model, then the role model, then the section model, then the preset default', () => {
    const config = { preset: 'minimax' as const, model: 'MiniMax-M2.5', target: { model: 'MiniMax-M3-Fast' } };
    const environment = { MINIMAX_API_KEY: 'k' };
    expect(resolve(config, { role: 'target', modelId: 'MiniMax-X' }, environment).settings.modelId).toBe('MiniMax-X');
    expect(resolve(config, { role: 'target' }, environment).settings.modelId).toBe('MiniMax-M3-Fast');
    expect(resolve(config, { role: 'optimizer' }, environment).settings.modelId).toBe('MiniMax-M2.5');
    expect(resolve({ preset: 'minimax' }, { role: 'optimizer' }, environment).settings.modelId).toBe('MiniMax-M3');
  });

  it('maps MiniMax regions to base URLs; an explicit base URL wins', () => {
    const environment = { MINIMAX_API_KEY: 'k' };
    expect(resolve({ preset: 'minimax' }, { role: 'target' }, environment).settings.baseUrl).toBe('https://api.minimax.io/v1');
    expect(resolve({ preset: 'minimax', region: 'cn_zh' }, { role: 'target' }, environment).settings.baseUrl).toBe('https://api.minimaxi.com/v1');
    expect(resolve({ preset: 'minimax' }, { role: 'target' }, { ...environment, MINIMAX_REGION: 'cn-zh' }).settings.baseUrl).toBe(
      'https://api.minimaxi.com/v1',
    );
    expect(
      resolve({ preset: 'minimax', region: 'cn_zh' }, { role: 'target' }, { ...environment, MINIMAX_BASE_URL: 'https://proxy.example/v1' }).settings.baseUrl,
    ).toBe('https://proxy.example/v1');
    expect(errorOf(() => resolve({ preset: 'minimax' }, { role: 'target' }, { ...environment, MINIMAX_REGION: 'mars' })).message).toContain('global_en, cn_zh');
  });

  it('lets role settings win over the section', () => {
    const config = { preset: 'qwen' as const, temperature: 0.2, max_tokens: 8000, target: { temperature: null, max_tokens: 1000 } };
    const target = resolve(config, { role: 'target' }).settings;
    const optimizer = resolve(config, { role: 'optimizer' }).settings;
    expect([target.temperature, target.maxTokens]).toEqual([null, 1000]);
    expect([optimizer.temperature, optimizer.maxTokens]).toEqual([0.2, 8000]);
    // The preset's default temperature (the original's 0.7) when nothing is set.
    expect(resolve({ preset: 'qwen' }, { role: 'target' }).settings.temperature).toBe(0.7);
  });

  it('resolves the Qwen thinking policy, refusing contradictions', () => {
    expect(resolve({ preset: 'qwen' }, { role: 'target' }).settings).toMatchObject({ thinkingMode: 'server_default', thinkingWire: 'chat-template-kwargs' });
    expect(resolve({ preset: 'qwen', enable_thinking: true }, { role: 'target' }).settings.thinkingMode).toBe('enabled');
    expect(resolve({ preset: 'qwen', enable_thinking: false }, { role: 'target' }).settings.thinkingMode).toBe('server_default');
    expect(
      resolve({ preset: 'qwen', thinking_mode: 'disabled', base_url: 'https://dashscope-intl.aliyuncs.com/compatible-mode/v1' }, { role: 'target' }).settings,
    ).toMatchObject({ thinkingMode: 'disabled', thinkingWire: 'enable-thinking-field' });
    expect(errorOf(() => resolve({ preset: 'qwen', thinking_mode: 'disabled', enable_thinking: true }, { role: 'target' })).message).toContain('contradicts');
    expect(resolve({ preset: 'minimax' }, { role: 'target' }, { MINIMAX_API_KEY: 'k' }).settings.thinkingMode).toBe('disabled');
    expect(resolve({}, { role: 'target' }, { OPENAI_API_KEY: 'k' }).settings.thinkingMode).toBeUndefined();
  });

  it('recognises OpenAI reasoning models by name, or as told', () => {
    const environment = { OPENAI_API_KEY: 'k' };
    for (const modelId of ['o3', 'o4-mini', 'gpt-5', 'gpt-5-mini', 'gpt-5.1', 'gpt-5.5'])
      expect(resolve({}, { role: 'target', modelId }, environment).settings.reasoningModel).toBe(true);
    for (const modelId of ['gpt-4o', 'gpt-4.1-mini', 'gpt-5-chat-latest'])
      expect(resolve({}, { role: 'target', modelId }, environment).settings.reasoningModel).toBe(false);
    expect(resolve({ preset: 'vllm', reasoning_model: true }, { role: 'target', modelId: 'gpt-oss-20b' }).settings).toMatchObject({
      reasoningModel: true,
      maxTokensParameter: 'max_completion_tokens',
    });
    expect(resolve({ preset: 'qwen', use_max_completion_tokens: true }, { role: 'target' }).settings.maxTokensParameter).toBe('max_completion_tokens');
  });

  describe('Azure OpenAI', () => {
    it("reads the endpoint, version and key through the original's variable chain", () => {
      const environment = {
        AZURE_OPENAI_ENDPOINT: 'https://shared.openai.azure.com/',
        TARGET_AZURE_OPENAI_ENDPOINT: 'https://target.openai.azure.com',
        AZURE_OPENAI_OPTIMIZER_API_KEY: 'optimizer-key',
        AZURE_OPENAI_API_KEY: 'shared-key',
        AZURE_OPENAI_API_VERSION: '2025-04-01-preview',
      };
      const target = resolve({ preset: 'azure' }, { role: 'target', modelId: 'gpt-4.1' }, environment);
      expect(target.settings.baseUrl).toBe('https://target.openai.azure.com/openai');
      expect(target.settings.azure).toEqual({
        endpoint: 'https://target.openai.azure.com',
        apiVersion: '2025-04-01-preview',
        deployment: 'gpt-4.1',
        authMode: 'api_key',
        adScope: 'https://cognitiveservices.azure.com/.default',
      });
      expect(target.credentials.apiKey).toBe('shared-key');
      const optimizer = resolve({ preset: 'azure', optimizer: { deployment: 'my-o3' } }, { role: 'optimizer', modelId: 'o3' }, environment);
      expect(optimizer.settings).toMatchObject({ wireModel: 'my-o3', modelId: 'o3', baseUrl: 'https://shared.openai.azure.com/openai', reasoningModel: true });
      expect(optimizer.credentials.apiKey).toBe('optimizer-key');
    });

    it('signs in with Entra ID when no key is set (auto), and needs an endpoint', () => {
      const { settings, credentials } = resolve({ preset: 'azure', endpoint: 'https://x.openai.azure.com' }, { role: 'target' });
      expect(settings.azure?.authMode).toBe('entra');
      expect(settings.azure?.apiVersion).toBe('2024-12-01-preview');
      expect(settings.modelId).toBe('gpt-4o');
      expect(credentials.apiKey).toBeUndefined();
      expect(errorOf(() => resolve({ preset: 'azure' }, { role: 'target' })).message).toContain('AZURE_OPENAI_ENDPOINT');
      expect(errorOf(() => resolve({ preset: 'azure', endpoint: 'https://x.openai.azure.com', auth_mode: 'api_key' }, { role: 'target' })).message).toContain(
        'AZURE_OPENAI_API_KEY',
      );
    });
  });
});
