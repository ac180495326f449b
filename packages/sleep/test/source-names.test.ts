import { parseSourceNames } from '../src/sources/source-names';

describe('source names a user types', () => {
  it('takes ours and the original’s names, each once, in order', () => {
    expect(parseSourceNames(['codex,claude', 'copilot_cli', 'claude-code', 'copilot'])).toEqual(['codex', 'claude-code', 'copilot-cli', 'copilot-vscode']);
  });

  it('suggests the nearest source for a misspelt one', () => {
    expect(() => parseSourceNames(['opnecode'])).toThrow(/"opnecode" is not a session source\. Did you mean "opencode"\?/);
    expect(() => parseSourceNames(['claud'])).toThrow(/Did you mean "claude-code"\?/);
  });
});
