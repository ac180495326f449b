import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, type CopilotBackendConfigInput } from '../src/index';
import { copilotTranscript, fakeCopilot, usageReport, type FakeCopilotScenario } from './fake-copilot';

// Each test runs the fake Copilot CLI as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'copilot-runner-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-copilot-test-0123456789abcdef';

async function runnerFor(scenario: FakeCopilotScenario, config: CopilotBackendConfigInput = {}) {
  const fake = await fakeCopilot(directory, scenario);
  const backend = createBackend(
    { path: fake.command, base_url: 'http://127.0.0.1:9/v1', ...config },
    { environment: { COPILOT_PROVIDER_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() },
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

const toolsOf = (argv: readonly string[]) =>
  argv
    .find((value) => value.startsWith('--available-tools='))
    ?.slice('--available-tools='.length)
    .split(',');

describe('copilot as an agent target', () => {
  it("answers with the last agent message and the usage report's token counts, the prompt on stdin", async () => {
    const { fake, runner } = await runnerFor({ transcript: copilotTranscript('<answer>4</answer>'), usageReport: usageReport() });
    const result = await runner.run(await request());
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.usage).toEqual({ inputTokens: 40, outputTokens: 7, cachedInputTokens: 10, cacheWriteInputTokens: 2 });
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    expect(result.transcript.map((event) => event.type)).toContain('result');
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('Read `task.md` in your working directory and answer inside <answer></answer> tags.');
    expect(invocation.argv.slice(0, 4)).toEqual(['--output-format', 'json', '--stream', 'off']);
    expect(invocation.argv).not.toContain('-p');
  });

  it('installs the skill as .github/copilot-instructions.md by default, and leaves custom instructions on so Copilot reads it', async () => {
    const { fake, runner } = await runnerFor({ transcript: copilotTranscript('ok') });
    const run = await request();
    await runner.run(run);
    const invocation = await fake.invocation();
    expect(invocation.files).toEqual(['.github/copilot-instructions.md', 'task.md']);
    expect(invocation.cwd).toBe(run.workspace);
    expect(await readFile(path.join(run.workspace, '.github/copilot-instructions.md'), 'utf8')).toBe(run.skill);
    expect(invocation.argv).not.toContain('--no-custom-instructions');
    expect(toolsOf(invocation.argv)).toEqual(['bash', 'view', 'glob', 'grep']);
  });

  it('installs the skill as a project skill with quoted front matter under skills-folder, and adds the skill tool', async () => {
    const { fake, runner } = await runnerFor({ transcript: copilotTranscript('ok') }, { skill_placement: 'skills-folder', skill_name: 'demo-skill' });
    const run = await request();
    await runner.run(run);
    const invocation = await fake.invocation();
    expect(invocation.files).toEqual(['.github/skills/demo-skill/SKILL.md', 'task.md']);
    expect(toolsOf(invocation.argv)).toEqual(['bash', 'view', 'glob', 'grep', 'skill']);
    const text = await readFile(path.join(run.workspace, '.github/skills/demo-skill/SKILL.md'), 'utf8');
    expect(text.startsWith('---\nname: demo-skill\ndescription: "The skill document for this task (.github/skills/demo-skill/SKILL.md); ')).toBe(true);
    expect(text.endsWith(`---\n\n${run.skill}`)).toBe(true);
  });

  it('isolates the state with a fresh COPILOT_HOME of its own, removed afterwards, and HOME left as it is (the unpacked package is shared)', async () => {
    process.env.SKILLOPT_COPILOT_TEST_LEAK_TOKEN = 'must-not-reach-copilot';
    process.env.COPILOT_GITHUB_TOKEN = 'ghp-must-not-reach-copilot';
    process.env.COPILOT_ALLOW_ALL = 'true';
    try {
      const { fake, runner } = await runnerFor({ transcript: copilotTranscript('ok') });
      await runner.run(await request());
      const homes = await fake.homes();
      expect(homes.copilotHomeExisted).toBe(true);
      expect(homes.home).toBe(process.env.HOME ?? homedir());
      expect(path.basename(path.dirname(homes.copilotHome)).startsWith('skillopt-copilot-home-')).toBe(true);
      expect(existsSync(homes.copilotHome)).toBe(false);
      const names = (await fake.invocation()).environment;
      expect(names).toEqual(
        expect.arrayContaining([
          'COPILOT_HOME',
          'COPILOT_OFFLINE',
          'COPILOT_AUTO_UPDATE',
          'COPILOT_PROVIDER_BASE_URL',
          'COPILOT_PROVIDER_TYPE',
          'COPILOT_PROVIDER_WIRE_API',
          'COPILOT_PROVIDER_API_KEY',
          'COPILOT_MODEL',
          'HOME',
          'PATH',
        ]),
      );
      for (const leaked of ['SKILLOPT_COPILOT_TEST_LEAK_TOKEN', 'COPILOT_GITHUB_TOKEN', 'COPILOT_ALLOW_ALL']) expect(names).not.toContain(leaked);
      const second = await runnerFor({ transcript: copilotTranscript('ok') });
      await second.runner.run(await request());
      expect((await second.fake.homes()).copilotHome).not.toBe(homes.copilotHome);
    } finally {
      delete process.env.SKILLOPT_COPILOT_TEST_LEAK_TOKEN;
      delete process.env.COPILOT_GITHUB_TOKEN;
      delete process.env.COPILOT_ALLOW_ALL;
    }
  });

  it('lets a run that asks to write edit files with the file tools; approves every tool only when allow_all_tools says so, and never for a read run', async () => {
    const argvOf = async (workspaceAccess: 'read' | 'write' | undefined, config: CopilotBackendConfigInput = {}) => {
      const { fake, runner } = await runnerFor({ transcript: copilotTranscript('ok') }, config);
      await runner.run(await request(workspaceAccess === undefined ? {} : { workspaceAccess }));
      return (await fake.invocation()).argv;
    };
    const read = await argvOf('read', { allow_all_tools: true });
    expect(toolsOf(read)).toEqual(['bash', 'view', 'glob', 'grep']);
    expect(read).not.toContain('--allow-tool=write');
    expect(read).not.toContain('--allow-all-tools');
    const write = await argvOf('write');
    expect(toolsOf(write)).toEqual(['bash', 'view', 'glob', 'grep', 'create', 'edit']);
    expect(write).toContain('--allow-tool=write');
    expect(write).not.toContain('--allow-all-tools');
    expect(await argvOf('write', { allow_all_tools: 'on' })).toContain('--allow-all-tools');
    expect(toolsOf(await argvOf(undefined, { available_tools: 'bash' }))).toEqual(['bash']);
  });

  it('keeps the edits a write run made in the workspace, for the caller to read', async () => {
    const { runner } = await runnerFor({ transcript: copilotTranscript('done'), writeFiles: [{ path: 'out/answer.txt', content: '42' }] });
    const run = await request({ workspaceAccess: 'write' });
    await runner.run(run);
    expect(await readFile(path.join(run.workspace, 'out/answer.txt'), 'utf8')).toBe('42');
  });

  it('turns a refused key into a non-retryable authentication error, with the key cut out of it', async () => {
    const { runner } = await runnerFor({
      transcript: [
        ...copilotTranscript('').slice(0, 3),
        { type: 'session.error', data: { errorType: 'authentication', statusCode: 401, message: `Authentication failed (HTTP 401) for ${SECRET}` } },
        { type: 'result', exitCode: 1 },
      ],
      exitCode: 1,
    });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, provider: 'copilot' });
    expect(String((error as Error).message)).not.toContain(SECRET);
    expect(String((error as Error).message)).toContain('HTTP 401');
  });

  it('turns a crash, a hang and a run without an answer into retryable infrastructure errors, never answers', async () => {
    const crashed = await (await runnerFor({ transcript: copilotTranscript('half').slice(0, 3), crashSignal: 'SIGKILL' })).runner
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(crashed).toMatchObject({ code: 'process-crashed', retryable: true });
    const hung = await (await runnerFor({ transcript: copilotTranscript('late').slice(0, 3), exitDelayMs: 60_000 })).runner
      .run(await request({ timeoutMs: 500 }))
      .catch((caught: unknown) => caught);
    expect(hung).toMatchObject({ code: 'process-timeout', retryable: true });
    const silent = await (await runnerFor({ transcript: copilotTranscript('').slice(0, 6), usageReport: usageReport() })).runner
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(silent).toMatchObject({ code: 'reply-empty', retryable: true });
  });

  it('estimates the usage, and marks it so, only when Copilot wrote no usage report (or one that names no model)', async () => {
    for (const report of [undefined, 'not json', { modelMetrics: {} }]) {
      const { runner } = await runnerFor({ transcript: copilotTranscript('an answer'), ...(report === undefined ? {} : { usageReport: report }) });
      const result = await runner.run(await request());
      expect(result.usage.estimated).toBe(true);
      expect(result.usage.inputTokens).toBeGreaterThan(0);
    }
  });
});
