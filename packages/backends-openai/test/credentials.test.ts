import { dropConfigSecrets } from '@skillopt/core';
import { apiKeyVariables } from '../src/environment-variables';
import { manifest, openAiBackendConfigSchema, PRESET_IDS, resolveModelSettings } from '../src/index';

function warningsFor(section: Record<string, unknown>): string[] {
  return dropConfigSecrets({ backends: { openai: section } }, { openai: manifest }).warnings.map((warning) => warning.message);
}

describe('the variables the openai backend names for its keys', () => {
  it('lists, for doctor, each preset key variable its code reads', () => {
    const variables = manifest.credentials?.variables ?? [];
    expect(variables).toEqual(
      expect.arrayContaining([
        { name: 'OPENAI_API_KEY', usedBy: 'OpenAI' },
        { name: 'DEEPSEEK_API_KEY', usedBy: 'DeepSeek' },
        { name: 'QWEN_CHAT_API_KEY', usedBy: 'Qwen' },
        { name: 'DASHSCOPE_API_KEY', usedBy: 'Qwen' },
        { name: 'VLLM_API_KEY', usedBy: 'vLLM' },
        { name: 'OPENAI_COMPATIBLE_API_KEY', usedBy: 'OpenAI-compatible servers' },
      ]),
    );
    // Every one is in the chain a preset's model reads its key from: one source, the preset table.
    for (const variable of variables)
      expect(
        PRESET_IDS.some((preset) => apiKeyVariables(preset, 'target').includes(variable.name) && apiKeyVariables(preset, 'optimizer').includes(variable.name)),
      ).toBe(true);
  });

  it("names the chosen preset's variable when a key is dropped from a config, not OPENAI_API_KEY", () => {
    expect(warningsFor({ preset: 'deepseek', api_key: 'sk-x', target: { api_key: 'sk-y' } })).toEqual([
      expect.stringMatching(/^backends\.openai\.api_key holds a secret.* set the environment variable DEEPSEEK_API_KEY instead$/),
      expect.stringContaining('set the environment variable TARGET_DEEPSEEK_API_KEY instead'),
    ]);
    expect(warningsFor({ target: { preset: 'ollama', api_key: 'k' } })).toEqual([expect.stringContaining('TARGET_OLLAMA_API_KEY')]);
    expect(warningsFor({ preset: 'qwen_chat', api_key: 'k' })).toEqual([expect.stringContaining('QWEN_CHAT_API_KEY')]);
    expect(warningsFor({ base_url: 'http://127.0.0.1:8000/v1', api_key: 'k' })).toEqual([expect.stringContaining('OPENAI_COMPATIBLE_API_KEY')]);
    expect(warningsFor({ api_key_env: 'MY_GATEWAY_KEY', api_key: 'k' })).toEqual([expect.stringContaining('MY_GATEWAY_KEY')]);
    expect(warningsFor({ api_key: 'k' })).toEqual([expect.stringContaining('OPENAI_API_KEY')]);
  });

  it('names a variable the model then really reads the key from', () => {
    for (const [section, modelId] of [
      [{ preset: 'deepseek' }, 'deepseek-chat'],
      [{ preset: 'minimax' }, 'MiniMax-M3'],
      [{ base_url: 'http://127.0.0.1:8000/v1' }, 'm'],
      [{ preset: 'llamacpp' }, 'm'],
    ] as const) {
      const named = manifest.credentials?.variableFor(section, undefined) as string;
      const { settings, credentials } = resolveModelSettings(openAiBackendConfigSchema.parse(section), { role: 'target', modelId }, { [named]: 'the-key' });
      expect([settings.apiKeyVariable, credentials.apiKey]).toEqual([named, 'the-key']);
    }
  });
});
