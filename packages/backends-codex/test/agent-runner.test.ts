import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type CodexBackendConfigInput } from '../src/index';
import { codexTranscript, fakeCodex } from './fake-codex';

// Each test runs the fake Codex CLI as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'codex-runner-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'sk-codex-test-0123456789abcdef';

async function runnerFor(scenario: FakeHarnessScenario, config: CodexBackendConfigInput = {}) {
  const fake = await fakeCodex(directory, scenario);
  const backend = createBackend(
    { path: fake.command, base_url: 'http://127.0.0.1:9/v1', ...config },
    { environment: { CODEX_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() },
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

describe('codex as an agent target', () => {
  it("answers with the last agent message and Codex's token counts, the prompt on stdin", async () => {
    const { fake, runner } = await runnerFor({ transcript: codexTranscript('<answer>4</answer>') });
    const result = await runner.run(await request());
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.usage).toEqual({ inputTokens: 40, cachedInputTokens: 10, outputTokens: 7, reasoningTokens: 2 });
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    expect(result.transcript.map((event) => event.type)).toEqual(['thread.started', 'turn.started', 'item.completed', 'item.completed', 'turn.completed']);
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe('Read `task.md` in your working directory and answer inside <answer></answer> tags.');
    expect(invocation.argv.slice(0, 2)).toEqual(['exec', '--json']);
    expect(invocation.argv.at(-1)).toBe('-');
    expect(valueAfter(invocation.argv, '--model')).toBe('sim-target');
  });

  it('installs the skill as AGENTS.md by default, in the workspace Codex is told to work in', async () => {
    const { fake, runner } = await runnerFor({ transcript: codexTranscript('ok') });
    const run = await request();
    await runner.run(run);
    const invocation = await fake.invocation();
    expect(invocation.files).toEqual(['AGENTS.md', 'task.md']);
    expect(invocation.cwd).toBe(run.workspace);
    expect(valueAfter(invocation.argv, '--cd')).toBe(run.workspace);
    expect(await readFile(path.join(run.workspace, 'AGENTS.md'), 'utf8')).toBe(run.skill);
    expect(invocation.argv).toContain('skills.include_instructions=false');
  });

  it('installs the skill as a project skill with front matter when skill_placement is skills-folder', async () => {
    const { fake, runner } = await runnerFor({ transcript: codexTranscript('ok') }, { skill_placement: 'skills-folder', skill_name: 'demo-skill' });
    const run = await request();
    await runner.run(run);
    const invocation = await fake.invocation();
    expect(invocation.files).toEqual(['.agents/skills/demo-skill/SKILL.md', 'task.md']);
    // The listing is how Codex tells the model about a project skill, so it stays on.
    expect(invocation.argv).not.toContain('skills.include_instructions=false');
    const text = await readFile(path.join(run.workspace, '.agents/skills/demo-skill/SKILL.md'), 'utf8');
    expect(text.startsWith('---\nname: demo-skill\ndescription: ')).toBe(true);
    expect(text.endsWith(`---\n\n${run.skill}`)).toBe(true);
  });

  it('isolates every run: a fresh CODEX_HOME (also HOME) of its own, removed afterwards; the environment by allowlist', async () => {
    process.env.SKILLOPT_CODEX_TEST_LEAK_TOKEN = 'must-not-reach-codex';
    try {
      const { fake, runner } = await runnerFor({ transcript: codexTranscript('ok') });
      await runner.run(await request());
      const homes = await fake.homes();
      expect(homes.codexHome).toBe(homes.home);
      expect(homes.codexHomeExisted).toBe(true);
      expect(homes.codexHome).not.toBe(homedir());
      expect(path.basename(homes.codexHome).startsWith('skillopt-codex-home-')).toBe(true);
      expect(existsSync(homes.codexHome)).toBe(false);
      const names = (await fake.invocation()).environment;
      expect(names).toEqual(expect.arrayContaining(['CODEX_HOME', 'HOME', 'PATH', 'SKILLOPT_CODEX_API_KEY']));
      expect(names).not.toContain('SKILLOPT_CODEX_TEST_LEAK_TOKEN');
      expect(names).not.toContain('CODEX_API_KEY');
      const second = await fakeCodex(directory, { transcript: codexTranscript('ok') });
      const again = createBackend({ path: second.command }, { environment: { CODEX_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() });
      await again.createAgentRunner({ role: 'target' }).run(await request());
      expect((await second.homes()).codexHome).not.toBe(homes.codexHome);
    } finally {
      delete process.env.SKILLOPT_CODEX_TEST_LEAK_TOKEN;
    }
  });

  it('runs in the read-only sandbox unless the request asks to write; only the config turns the sandbox off', async () => {
    const sandboxOf = async (workspaceAccess: 'read' | 'write' | undefined, config: CodexBackendConfigInput = {}) => {
      const { fake, runner } = await runnerFor({ transcript: codexTranscript('ok') }, config);
      await runner.run(await request(workspaceAccess === undefined ? {} : { workspaceAccess }));
      return valueAfter((await fake.invocation()).argv, '--sandbox');
    };
    expect(await sandboxOf(undefined)).toBe('read-only');
    expect(await sandboxOf('read')).toBe('read-only');
    expect(await sandboxOf('write')).toBe('workspace-write');
    expect(await sandboxOf('read', { sandbox: 'workspace-write' })).toBe('workspace-write');
    expect(await sandboxOf('write', { sandbox: 'danger-full-access' })).toBe('danger-full-access');
  });

  it('keeps the edits a write run made in the workspace, for the caller to read', async () => {
    const { runner } = await runnerFor({ transcript: codexTranscript('done'), writeFiles: [{ path: 'out/answer.txt', content: '42' }] });
    const run = await request({ workspaceAccess: 'write' });
    await runner.run(run);
    expect(await readFile(path.join(run.workspace, 'out/answer.txt'), 'utf8')).toBe('42');
  });

  it('turns a refused key into a non-retryable authentication error, with the key cut out of it', async () => {
    const message = `unexpected status 401 Unauthorized: Incorrect API key provided: Bearer ${SECRET}, url: http://127.0.0.1:9/v1/responses`;
    const { runner } = await runnerFor({
      transcript: [
        { type: 'thread.started', thread_id: 't' },
        { type: 'turn.started' },
        { type: 'error', message },
        { type: 'turn.failed', error: { message } },
      ],
      exitCode: 1,
    });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, provider: 'codex' });
    expect(String((error as Error).message)).not.toContain(SECRET);
    expect(String((error as Error).message)).toContain('unexpected status 401');
  });

  it('turns a crash, a hang and a run without an answer into retryable infrastructure errors, never answers', async () => {
    const crashed = await (await runnerFor({ transcript: codexTranscript('half').slice(0, 2), crashSignal: 'SIGKILL' })).runner
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(crashed).toMatchObject({ code: 'process-crashed', retryable: true });
    const hung = await (await runnerFor({ transcript: codexTranscript('late').slice(0, 2), exitDelayMs: 60_000 })).runner
      .run(await request({ timeoutMs: 500 }))
      .catch((caught: unknown) => caught);
    expect(hung).toMatchObject({ code: 'process-timeout', retryable: true });
    const silent = await (await runnerFor({ transcript: codexTranscript('').slice(0, 2) })).runner.run(await request()).catch((caught: unknown) => caught);
    expect(silent).toMatchObject({ code: 'reply-empty', retryable: true });
  });

  it('estimates the usage, and marks it so, only when Codex printed no token counts', async () => {
    const { runner } = await runnerFor({ transcript: codexTranscript('an answer').slice(0, 4) });
    const result = await runner.run(await request());
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });

  it('declares sandboxed runs, and takes allowedCommands without a warning while its own sandbox confines every command (not with danger-full-access)', async () => {
    const { runner } = await runnerFor({ transcript: codexTranscript('ok') });
    expect(runner.capabilities?.sandboxedRuns).toBe(true);
    const confined = await runner.run(await request({ workspaceAccess: 'write', allowedCommands: ['python3'] }));
    expect(confined.warnings).toBeUndefined();
    const { runner: unconfined } = await runnerFor({ transcript: codexTranscript('ok') }, { sandbox: 'danger-full-access' });
    const warned = await unconfined.run(await request({ allowedCommands: ['python3'] }));
    expect(warned.warnings).toEqual([expect.objectContaining({ type: 'unsupported-setting', field: 'allowedCommands' })]);
  });
});
