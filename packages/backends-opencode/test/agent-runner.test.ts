import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type OpencodeBackendConfigInput } from '../src/index';
import { fakeOpencode, opencodeTranscript } from './fake-opencode';

// Each test runs the fake OpenCode CLI as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'opencode-runner-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-opencode-test-0123456789abcdef';

async function runnerFor(scenario: FakeHarnessScenario, config: OpencodeBackendConfigInput = {}) {
  const fake = await fakeOpencode(directory, scenario);
  const backend = createBackend(
    { path: fake.command, base_url: 'http://127.0.0.1:9/v1/', ...config },
    { environment: { OPENCODE_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() },
  );
  return { fake, runner: backend.createAgentRunner({ role: 'target', modelId: 'sim-target' }) };
}

async function request(overrides: Partial<AgentRunRequest> = {}): Promise<AgentRunRequest> {
  const workspace = await mkdtemp(path.join(directory, 'workspace-'));
  return {
    skill: '# Skill\n- Answer in capitals. SKILL-MARKER',
    prompt: 'Read `task.md` in your working directory and answer inside <answer></answer> tags.',
    workspace,
    files: [{ path: 'task.md', content: 'What is 2+2?' }],
    timeoutMs: 30_000,
    purpose: 'rollout',
    ...overrides,
  };
}

const valueAfter = (argv: readonly string[], flag: string) => argv[argv.indexOf(flag) + 1];
type AgentConfig = { mode: string; permission: Record<string, string>; prompt?: string };

describe('opencode as an agent target', () => {
  it("answers with the last step's text and the steps' tokens summed, the prompt on stdin", async () => {
    const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('<answer>4</answer>') });
    const run = await request();
    const result = await runner.run(run);
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.usage).toEqual({ inputTokens: 80, cachedInputTokens: 20, outputTokens: 14, reasoningTokens: 4 });
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    expect(result.transcript.map((event) => event.type)).toEqual(['step_start', 'tool_use', 'step_finish', 'step_start', 'text', 'step_finish']);
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe(run.prompt);
    expect(invocation.argv).toEqual([
      'run',
      '--pure',
      '--format',
      'json',
      '--dir',
      run.workspace,
      '--model',
      'skillopt/sim-target',
      '--agent',
      'skillopt',
      '--title',
      'skillopt',
    ]);
    expect(invocation.cwd).toBe(run.workspace);
  });

  it('gives the whole config as OPENCODE_CONFIG_CONTENT: our provider at base_url, the key by reference only, side traffic off', async () => {
    const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') });
    await runner.run(await request());
    const { config, apiKey } = await fake.state();
    expect(config.provider).toEqual({
      skillopt: {
        npm: '@ai-sdk/openai-compatible',
        name: 'SkillOpt',
        options: { baseURL: 'http://127.0.0.1:9/v1', apiKey: '{env:SKILLOPT_OPENCODE_API_KEY}' },
        models: { 'sim-target': {} },
      },
    });
    expect(JSON.stringify(config)).not.toContain(SECRET);
    expect(apiKey).toBe(SECRET);
    expect(config).toMatchObject({ model: 'skillopt/sim-target', small_model: 'skillopt/sim-target', snapshot: false, share: 'disabled', autoupdate: false });
  });

  it('runs a deny-by-default agent: read tools only for a read run, edit too for a write run, bash only when allowed', async () => {
    const permissionOf = async (config: OpencodeBackendConfigInput, access?: 'read' | 'write') => {
      const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') }, config);
      await runner.run(await request(access === undefined ? {} : { workspaceAccess: access }));
      const { config: content } = await fake.state();
      const agent = (content.agent as Record<string, AgentConfig>).skillopt as AgentConfig;
      expect(agent.mode).toBe('primary');
      expect(content.permission).toEqual(agent.permission);
      return agent.permission;
    };
    expect(await permissionOf({})).toEqual({ '*': 'deny', read: 'allow', list: 'allow', glob: 'allow', grep: 'allow' });
    expect(Object.keys(await permissionOf({}, 'write'))).toEqual(['*', 'read', 'list', 'glob', 'grep', 'edit']);
    expect(await permissionOf({ allow_bash: 'true', skill_placement: 'skills-folder' })).toMatchObject({ skill: 'allow', bash: 'allow' });
    expect(await permissionOf({ allowed_tools: ['read'] }, 'write')).toEqual({ '*': 'deny', read: 'allow' });
  });

  it("isolates OpenCode's state in a fresh HOME and XDG folders, removed afterwards, and hands it no variable but the allowlist", async () => {
    const saved = process.env;
    process.env = {
      ...saved,
      OPENAI_API_KEY: 'sk-user-own',
      OPENCODE_CONFIG: '/home/user/opencode.json',
      GITHUB_TOKEN: 'ghp_x',
      HTTPS_PROXY: 'http://proxy:1',
    };
    try {
      const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') }, { pass_environment: ['GITHUB_TOKEN'] });
      await runner.run(await request());
      const state = await fake.state();
      expect(state.xdgConfigHome).toBe(path.join(state.home, '.config'));
      expect(state.xdgDataHome).toBe(path.join(state.home, '.local', 'share'));
      expect(state.xdgCacheHome).toBe(path.join(state.home, '.cache'));
      expect(state.xdgStateHome).toBe(path.join(state.home, '.local', 'state'));
      expect(path.basename(state.home)).toMatch(/^skillopt-opencode-home-/);
      expect(existsSync(state.home)).toBe(false);
      const names = (await fake.invocation()).environment;
      expect(names).not.toContain('OPENAI_API_KEY');
      expect(names).not.toContain('OPENCODE_CONFIG');
      expect(names).toEqual(
        expect.arrayContaining(['GITHUB_TOKEN', 'HTTPS_PROXY', 'OPENCODE_DISABLE_MODELS_FETCH', 'OPENCODE_DISABLE_AUTOUPDATE', 'npm_config_offline']),
      );
    } finally {
      process.env = saved;
    }
  });

  it('installs the skill as AGENTS.md by default, in the workspace OpenCode is told to work in', async () => {
    const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') });
    const run = await request();
    await runner.run(run);
    expect((await fake.invocation()).files).toEqual(['AGENTS.md', 'task.md']);
    expect(await readFile(path.join(run.workspace, 'AGENTS.md'), 'utf8')).toBe(run.skill);
  });

  it('installs the skill as a project skill with front matter when skill_placement is skills-folder', async () => {
    const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') }, { skill_placement: 'skills-folder', skill_name: 'demo-skill' });
    const run = await request();
    await runner.run(run);
    expect((await fake.invocation()).files).toEqual(['.opencode/skills/demo-skill/SKILL.md', 'task.md']);
    const text = await readFile(path.join(run.workspace, '.opencode/skills/demo-skill/SKILL.md'), 'utf8');
    expect(text.startsWith('---\nname: demo-skill\ndescription: ')).toBe(true);
    expect(text.endsWith(`---\n\n${run.skill}`)).toBe(true);
  });

  it('passes the variant when the config sets one', async () => {
    const { fake, runner } = await runnerFor({ transcript: opencodeTranscript('ok') }, { target: { variant: 'high' } });
    await runner.run(await request());
    expect(valueAfter((await fake.invocation()).argv, '--variant')).toBe('high');
  });

  it('turns an error event into the error it names, never an answer, with the key cut out', async () => {
    const { runner } = await runnerFor({
      transcript: [
        { type: 'step_start', part: {} },
        { type: 'error', error: { name: 'APIError', data: { message: `Incorrect API key provided: ${SECRET}`, statusCode: 401 } } },
      ],
      exitCode: 1,
    });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, provider: 'opencode' });
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('turns a crash into a retryable process-crashed and a run without text into reply-empty', async () => {
    const crashed = await (await runnerFor({ transcript: opencodeTranscript('').slice(0, 1), crashSignal: 'SIGKILL' })).runner
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(crashed).toMatchObject({ code: 'process-crashed', retryable: true });
    const empty = await (await runnerFor({ transcript: opencodeTranscript('') })).runner.run(await request()).catch((caught: unknown) => caught);
    expect(empty).toMatchObject({ code: 'reply-empty', retryable: true });
  });
});
