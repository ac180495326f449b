import { CURSOR_INHERITED_VARIABLES, cursorArguments, cursorCliConfig, cursorEnvironment } from '../src/index';

describe('the command line of one cursor-agent run', () => {
  it('reads the prompt from stdin, prints stream-json, trusts the workspace, and stays in Ask mode for a read run', () => {
    expect(cursorArguments({ modelId: 'composer-2.5', workspace: '/w', access: 'read', sandbox: 'enabled' })).toEqual([
      '-p',
      '--output-format',
      'stream-json',
      '--trust',
      '--workspace',
      '/w',
      '--sandbox',
      'enabled',
      '--mode',
      'ask',
      '--model',
      'composer-2.5',
    ]);
  });

  it('gives a write run --force instead of Ask mode, and a chat call no sandbox flag', () => {
    const write = cursorArguments({ modelId: 'm', workspace: '/w', access: 'write', sandbox: 'enabled' });
    expect(write).toContain('--force');
    expect(write).not.toContain('--mode');
    const chat = cursorArguments({ modelId: 'm', workspace: '/w', access: 'read' });
    expect(chat).not.toContain('--sandbox');
    expect(chat).toEqual(expect.arrayContaining(['--mode', 'ask']));
    expect(chat.join(' ')).not.toMatch(/--force|--approve-mcps/);
  });
});

describe("a run's private cli-config.json", () => {
  it('denies MCP always, writes unless the run may write, and reads too for a chat call (the original Sleep file)', () => {
    const denied = (kind: 'read' | 'write' | 'chat') => (cursorCliConfig(kind, 'enabled').permissions as { deny: string[] }).deny;
    expect(denied('read')).toEqual(['Write(**)', 'Mcp(*:*)']);
    expect(denied('write')).toEqual(['Mcp(*:*)']);
    expect(denied('chat')).toEqual(['Read(**)', 'Write(**)', 'Mcp(*:*)']);
    expect(cursorCliConfig('chat', 'disabled')).toEqual({
      version: 1,
      editor: { vimMode: false },
      permissions: { allow: [], deny: ['Read(**)', 'Write(**)', 'Mcp(*:*)'] },
      approvalMode: 'allowlist',
      sandbox: { mode: 'disabled', networkAccess: 'user_config_only', networkAllowlist: [] },
      network: { useHttp1ForAgent: false },
      hasChangedDefaultModel: false,
      attribution: { attributeCommitsToAgent: false, attributePRsToAgent: false },
    });
  });
});

describe("a run's environment", () => {
  it("inherits the original's allowlist without HOME or any credential, and points Cursor's folders and HOME at the run's own", () => {
    expect(CURSOR_INHERITED_VARIABLES).toEqual(expect.arrayContaining(['PATH', 'LANG', 'HTTPS_PROXY', 'no_proxy', 'NODE_EXTRA_CA_CERTS', 'SYSTEMROOT']));
    for (const name of ['HOME', 'CURSOR_API_KEY', 'OPENAI_API_KEY', 'DBUS_SESSION_BUS_ADDRESS', 'XDG_CONFIG_HOME'])
      expect(CURSOR_INHERITED_VARIABLES).not.toContain(name);
    expect(cursorEnvironment({ directory: '/tmp/run', configDirectory: '/tmp/run/config' }, 'key_x')).toEqual({
      CURSOR_CONFIG_DIR: '/tmp/run/config',
      CURSOR_DATA_DIR: '/tmp/run',
      HOME: '/tmp/run',
      TERM: 'dumb',
      CURSOR_API_KEY: 'key_x',
    });
  });
});
