import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type PiBackendConfigInput } from '../src/index';
import { fakePi, piAssistantMessage, piTranscript } from './fake-pi';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'pi-runner-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-pi-test-0123456789abcdef';

async function runnerFor(scenario: FakeHarnessScenario, config: PiBackendConfigInput = {}) {
  const fake = await fakePi(directory, scenario);
  const backend = createBackend(
    { path: fake.command, base_url: 'http://127.0.0.1:9/v1', ...config },
    { environment: { PI_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() },
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

describe('pi as an agent target', () => {
  it("answers with the last assistant message and Pi's token counts, the prompt on stdin", async () => {
    const { fake, runner } = await runnerFor({ transcript: piTranscript('<answer>4</answer>') });
    const result = await runner.run(await request());
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.usage).toEqual({ inputTokens: 40, cachedInputTokens: 10, outputTokens: 7 });
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('Read `task.md` in your working directory and answer inside <answer></answer> tags.');
    expect(invocation.argv.slice(0, 4)).toEqual(['-p', '--mode', 'json', '--no-session']);
    expect(valueAfter(invocation.argv, '--provider')).toBe('skillopt');
    expect(valueAfter(invocation.argv, '--model')).toBe('sim-target');
    expect(invocation.argv).toEqual(expect.arrayContaining(['--no-extensions', '--no-prompt-templates', '--no-themes']));
    expect(invocation.argv).not.toContain('--thinking');
  });

  it('installs the skill as AGENTS.md by default, with context files on and skill discovery off', async () => {
    const { fake, runner } = await runnerFor({ transcript: piTranscript('ok') });
    const run = await request();
    await runner.run(run);
    expect(await readFile(path.join(run.workspace, 'AGENTS.md'), 'utf8')).toBe(run.skill);
    const invocation = await fake.invocation();
    expect(invocation.cwd).toBe(run.workspace);
    expect(invocation.files).toEqual(['AGENTS.md', 'task.md']);
    expect(invocation.argv).toContain('--no-skills');
    expect(invocation.argv).not.toContain('--no-context-files');
  });

  it('installs a project skill with front matter in the skills folder, given to Pi by path with all discovery off', async () => {
    const { fake, runner } = await runnerFor({ transcript: piTranscript('ok') }, { skill_placement: 'skills-folder', skill_name: 'counting' });
    const run = await request();
    await runner.run(run);
    const file = await readFile(path.join(run.workspace, '.pi/skills/counting/SKILL.md'), 'utf8');
    expect(file).toMatch(/^---\nname: counting\ndescription: .+\n---\n\n# Skill\n/);
    const invocation = await fake.invocation();
    expect(valueAfter(invocation.argv, '--skill')).toBe(path.join(run.workspace, '.pi/skills/counting'));
    expect(invocation.argv).toEqual(expect.arrayContaining(['--no-skills', '--no-context-files']));
    expect(existsSync(path.join(run.workspace, 'AGENTS.md'))).toBe(false);
  });

  it('gives the read tools only, adds the edit tools for write access, and never bash unless the config names it', async () => {
    const tools = async (config: PiBackendConfigInput, access?: 'read' | 'write') => {
      const { fake, runner } = await runnerFor({ transcript: piTranscript('ok') }, config);
      await runner.run(await request(access === undefined ? {} : { workspaceAccess: access }));
      const argv = (await fake.invocation()).argv;
      return argv.includes('--no-tools') ? 'none' : valueAfter(argv, '--tools');
    };
    expect(await tools({})).toBe('read,grep,find,ls');
    expect(await tools({}, 'write')).toBe('read,grep,find,ls,edit,write');
    expect(await tools({ tools: ['read', 'bash'] }, 'write')).toBe('read,bash');
    expect(await tools({ tools: [] })).toBe('none');
  });

  it("runs in a fresh home and agent directory of its own, removed afterwards: the provider at the role's URL, the key by variable only, Pi's retries and compaction off", async () => {
    const { fake, runner } = await runnerFor({ transcript: piTranscript('ok') }, { api: 'openai-responses', thinking: 'high' });
    await runner.run(await request());
    const state = await fake.state();
    expect(state.agentDirectory).toBe(path.join(state.home, 'agent'));
    expect(state.home).not.toBe(homedir());
    expect(existsSync(state.home)).toBe(false);
    expect(state.models).toEqual({
      providers: {
        skillopt: {
          baseUrl: 'http://127.0.0.1:9/v1',
          api: 'openai-responses',
          apiKey: 'SKILLOPT_PI_API_KEY',
          compat: { supportsDeveloperRole: false },
          models: [{ id: 'sim-target', reasoning: true }],
        },
      },
    });
    expect(JSON.stringify(state.models)).not.toContain(SECRET);
    expect(state.settings).toMatchObject({ retry: { enabled: false, provider: { maxRetries: 0 } }, compaction: { enabled: false } });
    expect(valueAfter((await fake.invocation()).argv, '--thinking')).toBe('high');
  });

  it('hands Pi its variables by allowlist: none of the user’s keys, the offline switches on', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, { OPENAI_API_KEY: 'sk-user-openai', ANTHROPIC_API_KEY: 'sk-user-anthropic', GITHUB_TOKEN: 'ghp-user', LANG: 'C.UTF-8' });
    try {
      const { fake, runner } = await runnerFor({ transcript: piTranscript('ok') });
      await runner.run(await request());
      const names = (await fake.invocation()).environment;
      expect(names).toEqual(
        expect.arrayContaining(['HOME', 'PATH', 'PI_CODING_AGENT_DIR', 'PI_OFFLINE', 'PI_SKIP_VERSION_CHECK', 'PI_TELEMETRY', 'SKILLOPT_PI_API_KEY', 'LANG']),
      );
      for (const name of ['OPENAI_API_KEY', 'ANTHROPIC_API_KEY', 'GITHUB_TOKEN', 'PI_API_KEY']) expect(names).not.toContain(name);
    } finally {
      process.env = saved;
    }
  });

  it('turns a request Pi reported as failed (exit 0 all the same) into the provider error it names, its key scrubbed', async () => {
    const refused = { ...piAssistantMessage('', { input: 0, output: 0 }, 'error'), errorMessage: `401 Incorrect API key provided: ${SECRET}` };
    const { runner } = await runnerFor({ transcript: [{ type: 'message_end', message: refused }] });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, provider: 'pi' });
    expect((error as Error).message).not.toContain(SECRET);
  });

  it('turns an exit without an answer into a retryable reply-empty, and a crash into a retryable process-crashed', async () => {
    const silent = await runnerFor({ transcript: piTranscript('').slice(0, 3) });
    expect(await silent.runner.run(await request()).catch((caught: unknown) => caught)).toMatchObject({ code: 'reply-empty', retryable: true });
    const crashing = await runnerFor({ transcript: piTranscript('').slice(0, 3), stderr: 'Error: boom', exitCode: 1 });
    expect(await crashing.runner.run(await request()).catch((caught: unknown) => caught)).toMatchObject({ code: 'process-crashed', retryable: true });
  });
});
