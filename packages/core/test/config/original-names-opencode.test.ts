import { translateOriginalConfig } from '../../src/config/index.js';

describe("the original's OpenCode names", () => {
  it('lead opencode_cli and opencode-cli (SkillOpt-Sleep spellings) to the opencode backend', () => {
    const { config } = translateOriginalConfig({ model: { optimizer_backend: 'opencode_cli', target_backend: 'opencode-cli' } });
    expect(config.model).toEqual({ optimizer_backend: 'opencode', target_backend: 'opencode' });
  });
});
