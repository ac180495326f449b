import { createBackend, PRESET_IDS, type OpenAiBackendConfigInput, type PresetId, type PresetName } from '../src/index';

// `preset` is typed as the preset table's names (and their aliases): a typed caller's typo is a
// compile error, caught by the package's type check (`tsc --noEmit` covers test/).
describe('the type of preset', () => {
  it('takes the names of the preset table and their aliases', () => {
    const names: PresetName[] = ['deepseek', 'openai_compatible', 'llama.cpp', 'azure_openai'];
    const section: OpenAiBackendConfigInput = { preset: 'ollama', target: { preset: 'qwen_chat' } };
    // @ts-expect-error a misspelt preset is not a preset name
    const misspelt: OpenAiBackendConfigInput = { preset: 'deepsek' };
    // @ts-expect-error nor in a role's sub-section
    const misspeltRole: OpenAiBackendConfigInput = { target: { preset: 'olama' } };
    const everyId: readonly PresetId[] = PRESET_IDS;
    expect(everyId).toEqual(['openai', 'azure', 'qwen', 'minimax', 'deepseek', 'vllm', 'ollama', 'llamacpp', 'openai_compatible']);
    expect(names).toHaveLength(4);
    expect(createBackend(section, { environment: {} }).id).toBe('openai');
    // At run time the schema still refuses what the type refuses.
    expect(() => createBackend(misspelt, { environment: {} })).toThrow(/preset must be one of/);
    expect(() => createBackend(misspeltRole, { environment: {} })).toThrow(/preset must be one of/);
  });
});
