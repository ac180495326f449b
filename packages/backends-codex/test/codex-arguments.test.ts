import { codexBackendConfigSchema, codexEnvironment, codexExecArguments, renderChatPrompt, resolveRoleSettings, sandboxFor } from '../src/index';

const settingsOf = (config: Record<string, unknown> = {}) => resolveRoleSettings(codexBackendConfigSchema.parse(config), 'target', {}, 'sim-target');
const overridesOf = (argv: readonly string[]) => argv.flatMap((value, index) => (argv[index - 1] === '-c' ? [value] : []));

describe('the argument vector of codex exec', () => {
  it('is JSON events, ephemeral, outside git, our own provider with its retries off, side traffic off, prompt on stdin', () => {
    const argv = codexExecArguments({ settings: settingsOf({ base_url: 'http://127.0.0.1:4000/v1/' }), workingDirectory: '/work/space', sandbox: 'read-only' });
    expect(argv.slice(0, 13)).toEqual([
      'exec',
      '--json',
      '--ephemeral',
      '--skip-git-repo-check',
      '--color',
      'never',
      '--cd',
      '/work/space',
      '--sandbox',
      'read-only',
      '--model',
      'sim-target',
      '-c',
    ]);
    expect(overridesOf(argv)).toEqual([
      'model_provider="skillopt"',
      'model_providers.skillopt={name="SkillOpt",base_url="http://127.0.0.1:4000/v1",env_key="SKILLOPT_CODEX_API_KEY",wire_api="responses",request_max_retries=0,stream_max_retries=0}',
      'approval_policy="never"',
      'sandbox_workspace_write.network_access=false',
      'web_search="disabled"',
      'analytics.enabled=false',
      'features.plugins=false',
      'features.apps=false',
      'skills.include_instructions=false',
    ]);
    expect(argv.at(-1)).toBe('-');
    const withListing = codexExecArguments({ settings: settingsOf(), workingDirectory: '/w', sandbox: 'read-only', skillListing: true });
    expect(overridesOf(withListing)).not.toContain('skills.include_instructions=false');
    expect(argv).not.toContain('--dangerously-bypass-approvals-and-sandbox');
  });

  it('passes the configured effort, network, web search and overrides; a chat call turns the tools off and adds its schema', () => {
    const settings = settingsOf({ reasoning_effort: 'high', network_access: 'true', web_search: true, config_overrides: { model_verbosity: '"low"' } });
    const agent = overridesOf(codexExecArguments({ settings, workingDirectory: '/w', sandbox: 'workspace-write' }));
    expect(agent).toEqual(
      expect.arrayContaining(['sandbox_workspace_write.network_access=true', 'web_search="live"', 'model_reasoning_effort="high"', 'model_verbosity="low"']),
    );
    expect(agent.at(-1)).toBe('model_verbosity="low"');
    const chatArgv = codexExecArguments({
      settings,
      workingDirectory: '/w',
      sandbox: 'read-only',
      chat: true,
      reasoningEffort: 'low',
      developerInstructions: 'Be "brief".\nReally.',
      outputSchemaFile: '/t/schema.json',
    });
    expect(overridesOf(chatArgv)).toEqual(
      expect.arrayContaining([
        'model_reasoning_effort="low"',
        'developer_instructions="Be \\"brief\\".\\nReally."',
        'features.shell_tool=false',
        'features.multi_agent=false',
        'features.goals=false',
        'features.image_generation=false',
        'skills.include_instructions=false',
      ]),
    );
    expect(chatArgv.slice(-3)).toEqual(['--output-schema', '/t/schema.json', '-']);
  });

  it("reads the original's spellings: `none` effort is no override, booleans as words", () => {
    const parsed = codexBackendConfigSchema.parse({ reasoning_effort: 'none', network_access: 'off', web_search: 'yes' });
    expect(parsed.reasoning_effort).toBeUndefined();
    expect(parsed).toMatchObject({ network_access: false, web_search: true });
    expect(overridesOf(codexExecArguments({ settings: settingsOf({ reasoning_effort: 'none' }), workingDirectory: '/w', sandbox: 'read-only' }))).not.toEqual(
      expect.arrayContaining([expect.stringMatching(/^model_reasoning_effort=/)]),
    );
  });
});

describe('sandboxFor', () => {
  it('raises read-only to workspace-write for a write request, and nothing else', () => {
    expect(sandboxFor('read-only', undefined)).toBe('read-only');
    expect(sandboxFor('read-only', 'read')).toBe('read-only');
    expect(sandboxFor('read-only', 'write')).toBe('workspace-write');
    expect(sandboxFor('workspace-write', 'read')).toBe('workspace-write');
    expect(sandboxFor('danger-full-access', 'read')).toBe('danger-full-access');
  });
});

describe('codexEnvironment', () => {
  it('points CODEX_HOME and HOME at the run’s own folder and hands the key in the provider’s variable only', () => {
    expect(codexEnvironment('/tmp/home-1', 'sk-x')).toEqual({ CODEX_HOME: '/tmp/home-1', HOME: '/tmp/home-1', TERM: 'dumb', SKILLOPT_CODEX_API_KEY: 'sk-x' });
  });
});

describe('renderChatPrompt', () => {
  it('makes the system text the developer instructions and a lone user message the prompt, as they are', () => {
    expect(
      renderChatPrompt([
        { role: 'system', content: 'You improve skills.' },
        { role: 'user', content: 'Propose one edit.' },
      ]),
    ).toEqual({ developerInstructions: 'You improve skills.', prompt: 'Propose one edit.' });
  });

  it('writes a longer conversation as a labelled transcript that asks for the next reply', () => {
    const prompt = renderChatPrompt([
      { role: 'user', content: [{ type: 'text', text: 'Look up the weather.' }] },
      { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'weather', input: { city: 'Paris' } }] },
      { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'weather', output: 'sunny' }] },
    ]);
    expect(prompt.developerInstructions).toBeUndefined();
    expect(prompt.prompt).toBe(
      [
        'The conversation so far:',
        'User:\nLook up the weather.',
        'Assistant:\n[called weather (c1) with {"city":"Paris"}]',
        'Tool (weather, c1):\nsunny',
        'Reply to the last message as the assistant.',
      ].join('\n\n'),
    );
  });
});
