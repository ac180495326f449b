import { SkillOptError } from '@skillopt/contract';
import { readApiKey, readEnvironmentSetting, settingVariables } from '../src/index';

describe('settingVariables', () => {
  it('puts the role’s own variable first, then the shared one, then the provider’s names', () => {
    expect(settingVariables({ stem: 'DEEPSEEK', setting: 'API_KEY', role: 'target' })).toEqual(['TARGET_DEEPSEEK_API_KEY', 'DEEPSEEK_API_KEY']);
    expect(settingVariables({ stem: 'QWEN', setting: 'API_KEY', role: 'optimizer', conventionalNames: ['DASHSCOPE_API_KEY'] })).toEqual([
      'OPTIMIZER_QWEN_API_KEY',
      'QWEN_API_KEY',
      'DASHSCOPE_API_KEY',
    ]);
  });

  it("reads the original's <STEM>_<ROLE>_ spelling where asked, and only shared names without a role", () => {
    expect(settingVariables({ stem: 'AZURE_OPENAI', setting: 'ENDPOINT', role: 'target', roleAfterStem: true })).toEqual([
      'TARGET_AZURE_OPENAI_ENDPOINT',
      'AZURE_OPENAI_TARGET_ENDPOINT',
      'AZURE_OPENAI_ENDPOINT',
    ]);
    expect(settingVariables({ stem: 'ANTHROPIC', setting: 'API_KEY' })).toEqual(['ANTHROPIC_API_KEY']);
  });
});

describe('readEnvironmentSetting', () => {
  it('takes the first variable set to something other than blanks, trimmed', () => {
    const environment = { TARGET_OPENAI_API_KEY: '  ', OPENAI_API_KEY: ' sk-shared-key ' };
    expect(readEnvironmentSetting(environment, ['TARGET_OPENAI_API_KEY', 'OPENAI_API_KEY'])).toEqual({ name: 'OPENAI_API_KEY', value: 'sk-shared-key' });
    expect(readEnvironmentSetting(environment, ['MISSING'])).toBeUndefined();
  });
});

describe('readApiKey', () => {
  it('returns the key with the variable it came from', () => {
    expect(readApiKey({ ANTHROPIC_API_KEY: 'sk-ant-x' }, { backendId: 'anthropic', variables: ['TARGET_ANTHROPIC_API_KEY', 'ANTHROPIC_API_KEY'] })).toEqual({
      name: 'ANTHROPIC_API_KEY',
      value: 'sk-ant-x',
    });
  });

  it('fails with a config error naming every variable it read, never a value', () => {
    let failure: unknown;
    try {
      readApiKey(
        { OTHER_API_KEY: 'sk-not-this-one-0123456789' },
        { backendId: 'openai', role: 'target', variables: ['TARGET_OPENAI_API_KEY', 'OPENAI_API_KEY'], hint: 'or set api_key_env' },
      );
    } catch (error) {
      failure = error;
    }
    expect(SkillOptError.isInstance(failure)).toBe(true);
    const error = failure as SkillOptError;
    expect(error).toMatchObject({ code: 'config-invalid', category: 'user', retryable: false });
    expect(error.message).toBe(
      'backends.openai: no API key for the target in the environment: set TARGET_OPENAI_API_KEY or OPENAI_API_KEY (or set api_key_env)',
    );
    expect(JSON.stringify(error.toJSON())).not.toContain('sk-not-this-one');
  });
});
