import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type CursorBackendConfigInput } from '../src/index';
import { cursorTranscript, fakeCursor } from './fake-cursor';

let directory: string;
beforeEach(async () => {
  directory = await realpath(await mkdtemp(path.join(tmpdir(), 'cursor-runner-test-')));
});
afterEach(() => rm(directory, { recursive: true, force: true }));

const SECRET = 'key_cursor_test_0123456789abcdef';

async function runnerFor(scenario: FakeHarnessScenario, config: CursorBackendConfigInput = {}) {
  const fake = await fakeCursor(directory, scenario);
  const backend = createBackend({ path: fake.command, ...config }, { environment: { CURSOR_API_KEY: SECRET }, rateLimiters: createRateLimiterRegistry() });
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

describe('cursor as an agent target', () => {
  it("answers with the result event's text and the usage on it, the prompt on stdin, in Ask mode in the request's workspace", async () => {
    const { fake, runner } = await runnerFor({ transcript: cursorTranscript('<answer>4</answer>', { inputTokens: 40, outputTokens: 7, cacheReadTokens: 10 }) });
    const run = await request();
    const result = await runner.run(run);
    expect(result.finalText).toBe('<answer>4</answer>');
    expect(result.usage).toEqual({ inputTokens: 50, outputTokens: 7, cachedInputTokens: 10 });
    expect(result.exitStatus).toEqual({ code: 0, signal: null, timedOut: false });
    expect(result.transcript.map((event) => `${event.type}${event.subtype ? `/${event.subtype}` : ''}`)).toEqual([
      'system/init',
      'user',
      'tool_call/started',
      'tool_call/completed',
      'assistant',
      'result/success',
    ]);
    const invocation = await fake.invocation();
    expect(invocation.stdin).toBe(run.prompt);
    expect(invocation.cwd).toBe(run.workspace);
    expect(invocation.argv.slice(0, 4)).toEqual(['-p', '--output-format', 'stream-json', '--trust']);
    expect(valueAfter(invocation.argv, '--workspace')).toBe(run.workspace);
    expect(valueAfter(invocation.argv, '--mode')).toBe('ask');
    expect(valueAfter(invocation.argv, '--sandbox')).toBe('enabled');
    expect(valueAfter(invocation.argv, '--model')).toBe('sim-target');
    expect(invocation.argv).not.toContain('--force');
  });

  it('installs the skill as AGENTS.md by default', async () => {
    const { fake, runner } = await runnerFor({ transcript: cursorTranscript('ok') });
    const run = await request();
    await runner.run(run);
    expect((await fake.invocation()).files).toEqual(['AGENTS.md', 'task.md']);
    expect(await readFile(path.join(run.workspace, 'AGENTS.md'), 'utf8')).toBe(run.skill);
  });

  it('installs the skill as an always-applied project rule when skill_placement is cursor-rules', async () => {
    const { fake, runner } = await runnerFor({ transcript: cursorTranscript('ok') }, { skill_placement: 'cursor-rules', skill_name: 'demo-skill' });
    const run = await request();
    await runner.run(run);
    expect((await fake.invocation()).files).toEqual(['.cursor/rules/demo-skill.mdc', 'task.md']);
    const text = await readFile(path.join(run.workspace, '.cursor/rules/demo-skill.mdc'), 'utf8');
    expect(text).toBe(`---\ndescription: The instructions to follow for this task.\nalwaysApply: true\n---\n\n${run.skill}`);
  });

  it('isolates every run: its own config folder (a cli-config.json denying writes and MCP), data folder and HOME, removed afterwards; the environment by allowlist', async () => {
    process.env.SKILLOPT_CURSOR_TEST_LEAK_TOKEN = 'must-not-reach-cursor';
    try {
      const { fake, runner } = await runnerFor({ transcript: cursorTranscript('ok') });
      await runner.run(await request());
      const runtime = await fake.runtime();
      expect(runtime.home).not.toBe(homedir());
      expect(path.basename(runtime.home).startsWith('skillopt-cursor-runtime-')).toBe(true);
      expect(runtime.dataDirectory).toBe(runtime.home);
      expect(runtime.configDirectory).toBe(path.join(runtime.home, 'config'));
      expect(runtime.cliConfig.permissions).toEqual({ allow: [], deny: ['Write(**)', 'Mcp(*:*)'] });
      expect(runtime.cliConfig.sandbox).toEqual({ mode: 'enabled', networkAccess: 'user_config_only', networkAllowlist: [] });
      expect(existsSync(runtime.home)).toBe(false);
      const names = (await fake.invocation()).environment;
      expect(names).toEqual(expect.arrayContaining(['CURSOR_API_KEY', 'CURSOR_CONFIG_DIR', 'CURSOR_DATA_DIR', 'HOME', 'PATH', 'TERM']));
      expect(names).not.toContain('SKILLOPT_CURSOR_TEST_LEAK_TOKEN');
    } finally {
      delete process.env.SKILLOPT_CURSOR_TEST_LEAK_TOKEN;
    }
  });

  it('lets a write run edit under the sandbox (--force, writes allowed) and keeps its edits for the caller', async () => {
    const { fake, runner } = await runnerFor({ transcript: cursorTranscript('done'), writeFiles: [{ path: 'out/answer.txt', content: '42' }] });
    const run = await request({ workspaceAccess: 'write' });
    await runner.run(run);
    const invocation = await fake.invocation();
    expect(invocation.argv).toContain('--force');
    expect(invocation.argv).not.toContain('--mode');
    expect((await fake.runtime()).cliConfig.permissions).toEqual({ allow: [], deny: ['Mcp(*:*)'] });
    expect(await readFile(path.join(run.workspace, 'out/answer.txt'), 'utf8')).toBe('42');
  });

  it('refuses a write run with the sandbox disabled before starting Cursor, and runs read runs unsandboxed as configured', async () => {
    const { fake, runner } = await runnerFor({ transcript: cursorTranscript('ok') }, { sandbox: 'disabled' });
    const refused = await runner.run(await request({ workspaceAccess: 'write' })).catch((caught: unknown) => caught);
    expect(refused).toMatchObject({ code: 'config-invalid', retryable: false, message: expect.stringContaining('backends.cursor: sandbox: disabled') });
    await expect(fake.invocation()).rejects.toThrow(/ENOENT/);
    await runner.run(await request());
    expect(valueAfter((await fake.invocation()).argv, '--sandbox')).toBe('disabled');
  });

  it('fails closed on an error result: a non-retryable error for a model the account lacks, never the text before it', async () => {
    const { runner } = await runnerFor({
      transcript: [
        { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text: '<answer>4</answer>' }] } },
        { type: 'result', subtype: 'error', is_error: true, result: 'Invalid model: sim-target' },
      ],
      exitCode: 1,
    });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'model-not-found', retryable: false, provider: 'cursor' });
  });

  it('reads a refused key from stderr (no JSON printed): not retryable, with the key cut out of the message', async () => {
    const { runner } = await runnerFor({ stderr: `Error: Authentication required (key ${SECRET} was rejected)\n`, exitCode: 1 });
    const error = await runner.run(await request()).catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: 'provider-authentication', retryable: false, provider: 'cursor' });
    expect(String((error as Error).message)).toContain('Authentication required');
    expect(String((error as Error).message)).not.toContain(SECRET);
  });

  it('turns a crash, a hang and a stream without a result into retryable infrastructure errors, never answers', async () => {
    const partial = cursorTranscript('<answer>4</answer>').slice(0, 5);
    const crashed = await (await runnerFor({ transcript: partial, crashSignal: 'SIGKILL', echoEnvironment: ['CURSOR_API_KEY'] })).runner
      .run(await request())
      .catch((caught: unknown) => caught);
    expect(crashed).toMatchObject({ code: 'process-crashed', retryable: true });
    expect(String((crashed as Error).message)).not.toContain(SECRET);
    const hung = await (await runnerFor({ transcript: partial.slice(0, 2), exitDelayMs: 60_000 })).runner
      .run(await request({ timeoutMs: 500 }))
      .catch((caught: unknown) => caught);
    expect(hung).toMatchObject({ code: 'process-timeout', retryable: true });
    const silent = await (await runnerFor({ transcript: partial })).runner.run(await request()).catch((caught: unknown) => caught);
    expect(silent).toMatchObject({ code: 'reply-empty', retryable: true });
  });

  it('estimates the usage, and marks it so, only when the result carries none', async () => {
    const { runner } = await runnerFor({ transcript: cursorTranscript('an answer') });
    const result = await runner.run(await request());
    expect(result.usage.estimated).toBe(true);
    expect(result.usage.inputTokens).toBeGreaterThan(0);
  });
});
