import { copilotArguments, copilotBackendConfigSchema, copilotEnvironment, NO_TOOLS, renderChatPrompt, resolveRoleSettings, targetTools } from '../src/index';

const settingsOf = (config: Record<string, unknown> = {}) => resolveRoleSettings(copilotBackendConfigSchema.parse(config), 'target', {}, 'sim-target');

describe('the argument vector of a copilot run', () => {
  it('is JSON lines with the prompt on stdin, quiet, offline-safe, the key kept from the shell, the tools named, the usage in our file', () => {
    const argv = copilotArguments({ availableTools: ['bash', 'view'], usageFile: '/run/usage.json' });
    expect(argv).toEqual([
      '--output-format',
      'json',
      '--stream',
      'off',
      '--no-color',
      '--log-level',
      'none',
      '--no-auto-update',
      '--no-ask-user',
      '--disable-builtin-mcps',
      '--disallow-temp-dir',
      '--secret-env-vars=COPILOT_PROVIDER_API_KEY',
      '--available-tools=bash,view',
      '--usage-output-file',
      '/run/usage.json',
    ]);
    for (const flag of ['-p', '--prompt', '--allow-all', '--yolo', '--allow-all-paths', '--allow-all-urls', '--no-custom-instructions'])
      expect(argv).not.toContain(flag);
  });

  it('passes the effort, approves writes for a write run, every tool only for a write run that allows it, and no custom instructions for a chat call', () => {
    expect(copilotArguments({ availableTools: ['bash'], usageFile: 'u', reasoningEffort: 'high' })).toEqual(
      expect.arrayContaining(['--reasoning-effort', 'high']),
    );
    expect(copilotArguments({ availableTools: ['bash'], usageFile: 'u', write: true, allowAllTools: true })).toEqual(
      expect.arrayContaining(['--allow-tool=write', '--allow-all-tools']),
    );
    expect(copilotArguments({ availableTools: ['bash'], usageFile: 'u', allowAllTools: true })).not.toContain('--allow-all-tools');
    const chat = copilotArguments({ availableTools: [NO_TOOLS], usageFile: 'u', chat: true });
    expect(chat).toEqual(expect.arrayContaining(['--no-custom-instructions', `--available-tools=${NO_TOOLS}`]));
  });

  it('never passes an empty --available-tools, which Copilot reads as every tool', () => {
    expect(() => copilotArguments({ availableTools: [], usageFile: 'u' })).toThrow(/every tool/);
    const result = copilotBackendConfigSchema.safeParse({ available_tools: [] });
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error?.issues)).toContain('empty --available-tools as every tool');
    expect(copilotBackendConfigSchema.safeParse({ available_tools: ' , ' }).success).toBe(false);
    expect(copilotBackendConfigSchema.parse({ available_tools: 'bash, view' }).available_tools).toEqual(['bash', 'view']);
    expect(copilotBackendConfigSchema.safeParse({ available_tools: ['bash;rm'] }).success).toBe(false);
    expect(targetTools(['bash', 'edit'], { write: true, skillsFolder: true })).toEqual(['bash', 'edit', 'create', 'skill']);
  });
});

describe("a copilot run's environment", () => {
  it('is BYOK offline mode: the run’s COPILOT_HOME, the provider, its key and the model; no wire API for anthropic', () => {
    expect(copilotEnvironment(settingsOf({ base_url: 'http://127.0.0.1:4000/v1/' }), '/run/home', 'sk-x')).toEqual({
      COPILOT_HOME: '/run/home',
      COPILOT_OFFLINE: 'true',
      COPILOT_AUTO_UPDATE: 'false',
      COPILOT_PROVIDER_BASE_URL: 'http://127.0.0.1:4000/v1',
      COPILOT_PROVIDER_TYPE: 'openai',
      COPILOT_PROVIDER_WIRE_API: 'completions',
      COPILOT_PROVIDER_API_KEY: 'sk-x',
      COPILOT_MODEL: 'sim-target',
      NO_COLOR: '1',
      TERM: 'dumb',
    });
    const anthropic = copilotEnvironment(settingsOf({ provider_type: 'anthropic', base_url: 'https://api.anthropic.com' }), '/h', 'k');
    expect(anthropic).toMatchObject({ COPILOT_PROVIDER_TYPE: 'anthropic', COPILOT_PROVIDER_BASE_URL: 'https://api.anthropic.com' });
    expect(anthropic).not.toHaveProperty('COPILOT_PROVIDER_WIRE_API');
    expect(copilotEnvironment(settingsOf({ wire_api: 'responses' }), '/h', 'k').COPILOT_PROVIDER_WIRE_API).toBe('responses');
  });
});

describe('a chat call as one Copilot prompt', () => {
  it('joins the messages with --- lines, each but a user’s under its role, as the original did', () => {
    expect(
      renderChatPrompt([
        { role: 'system', content: 'You are the optimizer.' },
        { role: 'user', content: 'Propose an edit.' },
      ]),
    ).toBe('[system]\nYou are the optimizer.\n\n---\n\nPropose an edit.');
    expect(
      renderChatPrompt(
        [
          { role: 'user', content: 'Hi' },
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'lookup', input: { q: 1 } }] },
          { role: 'tool', content: [{ type: 'tool-result', toolCallId: 'c1', toolName: 'lookup', output: 'found' }] },
        ],
        'Reply with JSON.',
      ),
    ).toBe('Hi\n\n---\n\n[assistant]\n[called lookup (c1) with {"q":1}]\n\n---\n\n[tool] lookup (c1):\nfound\n\n---\n\nReply with JSON.');
  });
});
