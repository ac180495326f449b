import { chmod, mkdtemp, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessInvocation, FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type ClaudeCodeBackendConfigInput } from '../src/index';
import { FIXTURES, fakeClaude, resultEvent } from './fake-claude';

const SECRET = 'sk-ant-test-secret-0123456789';
let directory: string;

beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'skillopt-claude-runner-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

async function run(
  config: ClaudeCodeBackendConfigInput,
  scenario: FakeHarnessScenario,
  request: { workspaceAccess?: 'read' | 'write'; allowedCommands?: string[] } = {},
) {
  const cli = await fakeClaude(directory, scenario.transcript ? scenario : { transcriptFile: path.join(FIXTURES, 'stdout-stream-json.jsonl'), ...scenario });
  const workspace = await mkdtemp(path.join(directory, 'workspace-'));
  const backend = createBackend(
    { path: cli.path, ...config },
    { environment: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }, rateLimiters: createRateLimiterRegistry(), runsAsRoot: false },
  );
  const result = await backend.createAgentRunner({ role: 'target', modelId: 'claude-haiku-4-5' }).run({
    skill: '# Skill\n- Answer inside <answer></answer> tags.',
    prompt: 'Read `task.md` in your working directory and answer.',
    workspace,
    files: [{ path: 'task.md', content: 'What is 2+2?' }],
    timeoutMs: 30_000,
    purpose: 'rollout',
    ...request,
  });
  return { result, invocation: await cli.invocation(), workspace };
}

function option(argv: readonly string[], name: string): string | undefined {
  const index = argv.indexOf(name);
  return index === -1 ? undefined : argv[index + 1];
}

describe('a target run', () => {
  it('starts claude -p with stream-json, the model, read-only permissions, project settings and the prompt on stdin — never --bare', async () => {
    const { result, invocation } = await run({}, {});
    const argv = invocation.argv.slice(1);
    expect(argv.slice(0, 3)).toEqual(['-p', '--no-session-persistence', '--strict-mcp-config']);
    expect(option(argv, '--output-format')).toBe('stream-json');
    expect(argv).toContain('--verbose');
    expect(argv).not.toContain('--bare');
    expect(argv).not.toContain('--dangerously-skip-permissions');
    expect(option(argv, '--model')).toBe('claude-haiku-4-5');
    expect(option(argv, '--permission-mode')).toBe('dontAsk');
    expect(option(argv, '--tools')).toBe('Read,Glob,Grep,Bash,Skill');
    expect(option(argv, '--allowedTools')).toBe('Read,Glob,Grep,Skill');
    expect(option(argv, '--setting-sources')).toBe('project');
    expect(invocation.stdin).toBe('Read `task.md` in your working directory and answer.');
    expect(result.finalText).toBe('hi');
    expect(result.usage).toEqual({ inputTokens: 11, outputTokens: 3, cachedInputTokens: 0, cacheWriteInputTokens: 0 });
  });

  it('lets the agent edit files for write access (acceptEdits, Edit and Write) and only then', async () => {
    const argv = (await run({}, {}, { workspaceAccess: 'write' })).invocation.argv;
    expect(option(argv, '--permission-mode')).toBe('acceptEdits');
    expect(option(argv, '--tools')).toBe('Read,Glob,Grep,Bash,Edit,Write,Skill');
    expect(option(argv, '--allowedTools')).toBe('Read,Glob,Grep,Edit,Write,Skill');
  });

  it('maps allowedCommands onto Bash allowlist rules, keeping the mode that refuses every other command, and warns nothing', async () => {
    const { invocation, result } = await run({}, {}, { workspaceAccess: 'write', allowedCommands: ['python3', 'pip'] });
    expect(option(invocation.argv, '--permission-mode')).toBe('acceptEdits');
    expect(option(invocation.argv, '--tools')).toBe('Read,Glob,Grep,Bash,Edit,Write,Skill');
    expect(option(invocation.argv, '--allowedTools')).toBe('Read,Glob,Grep,Edit,Write,Skill,Bash(python3:*),Bash(pip:*)');
    expect(result.warnings).toBeUndefined();
    const readOnly = await run({}, {}, { allowedCommands: ['python3'] });
    expect(option(readOnly.invocation.argv, '--permission-mode')).toBe('dontAsk');
    expect(option(readOnly.invocation.argv, '--allowedTools')).toBe('Read,Glob,Grep,Skill,Bash(python3:*)');
  });

  it('calls a refused Bash command of a run that named its commands an allowedCommands warning', async () => {
    const denied = resultEvent('done', { permission_denials: [{ tool_name: 'Bash', tool_use_id: 'toolu_1', tool_input: { command: 'rm -rf outputs' } }] });
    const { result } = await run({}, { transcript: [denied] }, { workspaceAccess: 'write', allowedCommands: ['python3'] });
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'unsupported-setting', field: 'allowedCommands', message: expect.stringContaining('Bash') }),
    ]);
  });

  it('declares sandboxed runs and runs inside bubblewrap for isolation: sandbox, its config dir its only state, a private HOME', async () => {
    const cliDirectory = await realpath(await mkdtemp(path.join(tmpdir(), 'skillopt-claude-cli-')));
    // An install the sandbox's user may read, as npm leaves one (mkdtemp's folder is root's alone).
    await chmod(cliDirectory, 0o755);
    try {
      const workspace = await mkdtemp(path.join(directory, 'workspace-'));
      const record = path.join(workspace, 'invocation.json');
      const cli = await fakeClaude(cliDirectory, {
        transcriptFile: path.join(cliDirectory, 'transcript.jsonl'),
        recordInvocationTo: record,
        probePaths: [path.join(directory, 'beside.txt')],
      });
      await writeFile(path.join(cliDirectory, 'transcript.jsonl'), `${JSON.stringify(resultEvent('sandboxed answer'))}\n`);
      await writeFile(path.join(directory, 'beside.txt'), 'not for the agent');
      const runner = createBackend(
        { path: cli.path },
        { environment: { ANTHROPIC_API_KEY: SECRET, ANTHROPIC_BASE_URL: 'http://127.0.0.1:9/' }, rateLimiters: createRateLimiterRegistry(), runsAsRoot: false },
      ).createAgentRunner({ role: 'target', modelId: 'claude-haiku-4-5' });
      expect(runner.capabilities?.sandboxedRuns).toBe(true);
      const result = await runner.run({
        skill: '# Skill',
        prompt: 'Answer.',
        workspace,
        timeoutMs: 30_000,
        purpose: 'rollout',
        isolation: 'sandbox',
        workspaceAccess: 'write',
        allowedCommands: ['python3'],
      });
      expect(result.finalText).toBe('sandboxed answer');
      const invocation = JSON.parse(await readFile(record, 'utf8')) as FakeHarnessInvocation;
      expect(invocation.userId).toBe(65534);
      expect(invocation.probes).toEqual({ [path.join(directory, 'beside.txt')]: { exists: false, readable: false } });
      expect(invocation.home).not.toBe(process.env.HOME);
    } finally {
      await rm(cliDirectory, { recursive: true, force: true });
    }
  });

  it('takes the permission mode and tools the config asks for, and IS_SANDBOX only with sandboxed', async () => {
    const { invocation } = await run({ permission_mode: 'bypassPermissions', sandboxed: true, allowed_tools: ['Read', 'Bash'], effort: 'low' }, {});
    expect(option(invocation.argv, '--permission-mode')).toBe('bypassPermissions');
    expect(option(invocation.argv, '--tools')).toBe('Read,Bash');
    expect(option(invocation.argv, '--effort')).toBe('low');
    expect(invocation.environment).toContain('IS_SANDBOX');
    expect((await run({ permission_mode: 'bypassPermissions' }, {})).invocation.environment).not.toContain('IS_SANDBOX');
  });

  it('refuses bypassPermissions as root without sandboxed, before any run', () => {
    expect(() => createBackend({ permission_mode: 'bypassPermissions' }, { environment: { ANTHROPIC_API_KEY: SECRET }, runsAsRoot: true })).toThrow(
      expect.objectContaining({
        code: 'config-invalid',
        message: expect.stringMatching(/^backends\.claude-code: permission_mode: bypassPermissions as root needs `sandboxed: true`/),
      }),
    );
    expect(() => createBackend({ permission_mode: 'bypassPermissions', sandboxed: true }, { runsAsRoot: true })).not.toThrow();
  });

  it('gives the CLI its environment by allowlist: a fresh config dir, side traffic off, the key and origin, nothing else', async () => {
    process.env.SKILLOPT_TEST_LEAK = 'leaked';
    process.env.OPENAI_API_KEY = 'sk-other-provider';
    try {
      const { invocation } = await run({ max_thinking_tokens: 0, pass_environment: ['SKILLOPT_TEST_LEAK'] }, {});
      expect(invocation.environment).toEqual(
        expect.arrayContaining([
          'ANTHROPIC_API_KEY',
          'ANTHROPIC_BASE_URL',
          'CLAUDE_CONFIG_DIR',
          'CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC',
          'DISABLE_AUTOUPDATER',
          'MAX_THINKING_TOKENS',
          'PATH',
        ]),
      );
      expect(invocation.environment).toContain('SKILLOPT_TEST_LEAK');
      expect(invocation.environment).not.toContain('OPENAI_API_KEY');
      const { invocation: plain } = await run({}, { echoEnvironment: ['CLAUDE_CONFIG_DIR', 'ANTHROPIC_BASE_URL', 'HOME'] });
      expect(plain.environment).not.toContain('SKILLOPT_TEST_LEAK');
      expect(plain.environment).not.toContain('MAX_THINKING_TOKENS');
    } finally {
      delete process.env.SKILLOPT_TEST_LEAK;
      delete process.env.OPENAI_API_KEY;
    }
  });

  it('runs each time with a fresh CLAUDE_CONFIG_DIR outside the workspace, removed afterwards', async () => {
    const configDirectories: string[] = [];
    for (let attempt = 0; attempt < 2; attempt += 1) {
      // A failing run quotes the tail of stderr, where the fake printed the variable.
      const cli = await fakeClaude(directory, { echoEnvironment: ['CLAUDE_CONFIG_DIR'], exitCode: 3 });
      const workspace = await mkdtemp(path.join(directory, 'workspace-'));
      const backend = createBackend(
        { path: cli.path },
        { environment: { ANTHROPIC_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry(), runsAsRoot: false },
      );
      const failure = await backend
        .createAgentRunner({ role: 'target' })
        .run({ skill: 's', prompt: 'p', workspace, timeoutMs: 30_000, purpose: 'rollout' })
        .catch((error: Error) => error);
      const configDirectory = /CLAUDE_CONFIG_DIR=(\S+)/.exec(String((failure as Error).message))?.[1];
      expect(configDirectory).toMatch(/skillopt-claude-config-/);
      expect(path.relative(workspace, configDirectory as string).startsWith('..')).toBe(true);
      expect(existsSync(configDirectory as string)).toBe(false);
      configDirectories.push(configDirectory as string);
    }
    expect(new Set(configDirectories).size).toBe(2);
  });

  it('installs the skill as a project skill with front matter naming its file, or as CLAUDE.md', async () => {
    const project = await run({}, {});
    expect(project.invocation.files).toEqual(['.claude/skills/skillopt-target/SKILL.md', 'task.md']);
    const skillFile = await readFile(path.join(project.workspace, '.claude/skills/skillopt-target/SKILL.md'), 'utf8');
    expect(skillFile).toBe(
      '---\nname: skillopt-target\ndescription: The skill document for this task, at .claude/skills/skillopt-target/SKILL.md: read it (or load it with the Skill tool) before you start, and follow it.\n---\n\n# Skill\n- Answer inside <answer></answer> tags.',
    );
    const memory = await run({ skill_placement: 'claude-md' }, {});
    expect(memory.invocation.files).toEqual(['CLAUDE.md', 'task.md']);
    expect(await readFile(path.join(memory.workspace, 'CLAUDE.md'), 'utf8')).toBe('# Skill\n- Answer inside <answer></answer> tags.');
    expect(option(memory.invocation.argv, '--tools')).toBe('Read,Glob,Grep,Bash');
    expect(existsSync(path.join(memory.workspace, '.claude'))).toBe(false);
  });

  it('reports the tool uses the permissions refused as a warning', async () => {
    const denied = resultEvent('<answer>4</answer>', { permission_denials: [{ tool_name: 'Bash', tool_use_id: 't1', tool_input: { command: 'rm -rf /' } }] });
    const { result } = await run({}, { transcript: [denied] });
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.warnings).toEqual([
      { type: 'unsupported-setting', field: 'workspaceAccess', message: "Claude Code refused 1 tool use (Bash) the run's permissions do not allow" },
    ]);
  });

  it('turns a refused key into a non-retryable authentication error that does not quote the key', async () => {
    const refused = resultEvent(`Invalid API key: ${SECRET}`, { is_error: true, api_error_status: 401 });
    await expect(run({}, { transcript: [refused], exitCode: 1 })).rejects.toMatchObject({
      code: 'provider-authentication',
      retryable: false,
      message: expect.not.stringContaining(SECRET),
    });
  });
});

describe('credentials', () => {
  it("reads the role's own key, then ANTHROPIC_API_KEY, then CLAUDE_CODE_OAUTH_TOKEN, and names them all when none is set", async () => {
    expect(() => createBackend({}, { environment: {}, runsAsRoot: false }).createAgentRunner({ role: 'target' })).toThrow(
      /^backends\.claude-code: no credential for the target in the environment: set TARGET_ANTHROPIC_API_KEY or ANTHROPIC_API_KEY or CLAUDE_CODE_OAUTH_TOKEN/,
    );
    const cli = await fakeClaude(directory, { transcript: [resultEvent('ok')] });
    const backend = createBackend(
      { path: cli.path },
      { environment: { CLAUDE_CODE_OAUTH_TOKEN: 'token-abc' }, rateLimiters: createRateLimiterRegistry(), runsAsRoot: false },
    );
    const workspace = await mkdtemp(path.join(directory, 'workspace-'));
    await backend.createAgentRunner({ role: 'target' }).run({ skill: 's', prompt: 'p', workspace, timeoutMs: 30_000, purpose: 'rollout' });
    const environment = (await cli.invocation()).environment;
    expect(environment).toContain('CLAUDE_CODE_OAUTH_TOKEN');
    expect(environment).not.toContain('ANTHROPIC_API_KEY');
  });
});
