import { composeConfigSchema, resolveConfig } from '@skillopt/core';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, manifest, type OpenAiBackendConfig } from '../src/index';

/*
 * A config written for the original SkillOpt, read the way the CLI reads it (core's resolveConfig
 * with the schema composed from the loaded packages): the openai package's manifest says what the
 * original's backend names and its flat `model.azure_openai_*`, `model.qwen_chat_*` and
 * `model.minimax_*` keys mean; core only finds the package.
 */

const withOpenAi = composeConfigSchema({ backends: { openai: manifest } });
const original = (model: Record<string, unknown>) => ({ layers: [{ name: 'original.yaml', config: { model, env: { name: 'searchqa' } } }] });

describe("the original's openai keys, translated by this package's manifest", () => {
  it('turns model.azure_openai_* into an Azure section this backend runs with', async () => {
    const resolved = await resolveConfig({
      ...original({
        optimizer_backend: 'openai_chat',
        target_backend: 'azure_openai',
        target: 'gpt-4.1',
        optimizer: 'gpt-5',
        azure_openai_endpoint: 'https://shared.openai.azure.com',
        azure_openai_api_version: '2025-04-01-preview',
        azure_openai_auth_mode: 'key',
        target_azure_openai_endpoint: 'https://target.openai.azure.com',
        azure_openai_api_key: 'sk-in-a-file-0123456789',
      }),
      schema: withOpenAi,
    });
    expect(resolved.originalFormat).toBe(true);
    const section = resolved.config.backends.openai as OpenAiBackendConfig;
    expect(section).toEqual({
      preset: 'azure',
      endpoint: 'https://shared.openai.azure.com',
      api_version: '2025-04-01-preview',
      auth_mode: 'api_key',
      target: { endpoint: 'https://target.openai.azure.com' },
    });
    expect(JSON.stringify(resolved.config)).not.toContain('sk-in-a-file');
    expect(resolved.warnings).toEqual([
      expect.objectContaining({
        code: 'secret-dropped',
        path: 'model.azure_openai_api_key',
        message: expect.stringContaining('set the environment variable AZURE_OPENAI_API_KEY instead'),
      }),
    ]);
    expect(resolved.sources['backends.openai.endpoint']).toEqual({ kind: 'inline', name: 'original.yaml' });

    const backend = createBackend(section, { environment: { AZURE_OPENAI_API_KEY: 'sk-azure-0123456789' }, rateLimiters: createRateLimiterRegistry() });
    const target = backend.createChatModel({ role: 'target', modelId: resolved.config.model.target as string });
    expect(target.settings).toMatchObject({
      preset: 'azure',
      baseUrl: 'https://target.openai.azure.com/openai',
      azure: { apiVersion: '2025-04-01-preview', authMode: 'api_key', deployment: 'gpt-4.1' },
    });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5' }).settings.baseUrl).toBe('https://shared.openai.azure.com/openai');
  });

  it('keeps the settings per role when an Azure optimizer and a Qwen target share the backend, and names the Qwen key variable', async () => {
    const resolved = await resolveConfig({
      ...original({
        optimizer_backend: 'openai_chat',
        target_backend: 'qwen_chat',
        target: 'Qwen/Qwen3.5-4B',
        azure_openai_endpoint: 'https://x.openai.azure.com',
        qwen_chat_base_url: 'http://127.0.0.1:8000/v1',
        qwen_chat_thinking_mode: 'disabled',
        target_qwen_chat_api_key: 'sk-qwen-in-a-file-0123',
      }),
      schema: withOpenAi,
    });
    expect(resolved.config.backends.openai).toEqual({
      optimizer: { preset: 'azure', endpoint: 'https://x.openai.azure.com' },
      target: { preset: 'qwen', base_url: 'http://127.0.0.1:8000/v1', thinking_mode: 'disabled' },
    });
    expect(resolved.warnings.map((warning) => warning.message)).toEqual([
      expect.stringContaining('set the environment variable TARGET_QWEN_CHAT_API_KEY instead'),
    ]);
  });

  it("reads minimax_model as a MiniMax target's model, and leaves the base's shipped MiniMax values unwarned when MiniMax is unused", async () => {
    const minimax = await resolveConfig({
      ...original({ target_backend: 'minimax_chat', minimax_model: 'MiniMax-M2.5', minimax_region: 'cn_zh' }),
      schema: withOpenAi,
    });
    expect(minimax.config.model.target).toBe('MiniMax-M2.5');
    expect(minimax.config.backends.openai).toEqual({ optimizer: { preset: 'azure' }, target: { preset: 'minimax', region: 'cn_zh' } });

    const unused = await resolveConfig({
      ...original({ target_backend: 'openai_chat', minimax_model: 'MiniMax-M3', minimax_temperature: '0.7', minimax_region: 'cn_zh' }),
      schema: withOpenAi,
    });
    expect(unused.config.backends.openai).toEqual({ preset: 'azure' });
    expect(unused.warnings).toEqual([
      {
        code: 'unused-backend-key',
        path: 'model.minimax_region',
        message: 'model.minimax_region: settings of minimax_chat, which neither role uses here; ignored',
      },
    ]);
  });

  it('without this package loaded, the keys pass through under their own names and the section is not validated', async () => {
    const resolved = await resolveConfig(original({ target_backend: 'openai_chat', azure_openai_endpoint: 'https://x.openai.azure.com' }));
    expect(resolved.config.backends).toEqual({ openai: { endpoint: 'https://x.openai.azure.com' } });
    expect(resolved.warnings.map((warning) => [warning.code, warning.path])).toContainEqual(['section-not-validated', 'backends.openai']);
  });
});
