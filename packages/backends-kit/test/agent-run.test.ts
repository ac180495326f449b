import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, SkillOptError, type AgentRunRequest } from '@skillopt/contract';
import { createRateLimiter, createHarnessRunner, installSkillAsFile, TRANSCRIPT_SHORTENED_EVENT, type HarnessDefinition } from '../src/index';
import {
  createReferenceHarnessRunner,
  prepareFakeHarness,
  referenceHarnessTranscript,
  type FakeHarnessInvocation,
  type FakeHarnessScenario,
} from '../src/testing';

const API_KEY = 'sk-reference-0123456789abcdefghij';
// Longer than any test's limit: a harness that waits this long before it exits ends only when it is
// killed, and a run that waited out a grace period this long would fail its test.
const LONGER_THAN_ANY_TEST_MS = 3_600_000;
let directory: string;
let workspace: string;

beforeEach(() => {
  directory = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-run-harness-')));
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-run-workspace-')));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

function request(overrides: Partial<AgentRunRequest> = {}): AgentRunRequest {
  return { skill: '# Skill\n- Answer in <answer></answer> tags.', prompt: 'What is 6 × 7?', workspace, timeoutMs: 20_000, purpose: 'rollout', ...overrides };
}

function runnerPlaying(scenario: FakeHarnessScenario, options: { maxTranscriptBytes?: number; terminationGraceMs?: number } = {}) {
  return createReferenceHarnessRunner({ directory, scenario, apiKey: API_KEY, ...options });
}

async function failureOf(promise: Promise<unknown>): Promise<ProviderError> {
  try {
    await promise;
  } catch (error) {
    if (ProviderError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail');
}

function expectNoSecret(value: unknown): void {
  expect(JSON.stringify(value)).not.toContain(API_KEY);
}

describe('the agent-run flow', () => {
  it('writes the files and the skill, gives the prompt on stdin, and returns the answer, usage, transcript and exit status', async () => {
    const invocationFile = path.join(directory, 'invocation.json');
    const runner = runnerPlaying({
      transcript: referenceHarnessTranscript('<answer>42</answer>', { inputTokens: 900, outputTokens: 30 }),
      recordInvocationTo: invocationFile,
      writeFiles: [{ path: 'notes/working.md', content: 'the agent was here' }],
    });
    const result = await runner.run(
      request({
        files: [
          { path: 'task/data.csv', content: 'a,b\n1,2\n' },
          { path: 'image.bin', content: new Uint8Array([0, 1, 2]) },
        ],
      }),
    );

    expect(result).toMatchObject({
      finalText: '<answer>42</answer>',
      usage: { inputTokens: 900, outputTokens: 30 },
      exitStatus: { code: 0, signal: null, timedOut: false },
    });
    expect(result.usage.estimated).toBeUndefined();
    expect(result.warnings).toBeUndefined();
    expect(result.transcript.map((event) => event.type)).toEqual(['message', 'tool', 'result']);

    const invocation = JSON.parse(readFileSync(invocationFile, 'utf8')) as FakeHarnessInvocation;
    expect(invocation.stdin).toBe('What is 6 × 7?');
    expect(invocation.cwd).toBe(workspace);
    expect(invocation.files).toEqual(['AGENTS.md', 'image.bin', 'task/data.csv']);
    // The environment is an allowlist: PATH and the harness's key, nothing else of this process.
    expect(invocation.environment).toContain('REFERENCE_HARNESS_API_KEY');
    expect(invocation.environment).not.toContain('HOME');
    // The caller's workspace keeps what the agent wrote, for the caller to read and then remove.
    expect(readFileSync(path.join(workspace, 'AGENTS.md'), 'utf8')).toBe(request().skill);
    expect(readFileSync(path.join(workspace, 'notes', 'working.md'), 'utf8')).toBe('the agent was here');
    expect([...readFileSync(path.join(workspace, 'image.bin'))]).toEqual([0, 1, 2]);
  });

  it('estimates usage from the text, marked estimated, when the harness reports none', async () => {
    const result = await runnerPlaying({ transcript: referenceHarnessTranscript('forty-two') }).run(request());
    expect(result.usage).toEqual({ inputTokens: expect.any(Number), outputTokens: 3, estimated: true });
    expect(result.usage.inputTokens).toBeGreaterThan(5);
  });

  it('turns a run past its time limit into a retryable process-timeout, killing the harness even when it ignores SIGTERM', async () => {
    const runner = runnerPlaying(
      { transcript: [{ type: 'message', role: 'assistant', text: 'thinking…' }], exitDelayMs: LONGER_THAN_ANY_TEST_MS, ignoreTerminate: true },
      { terminationGraceMs: 200 },
    );
    const error = await failureOf(runner.run(request({ timeoutMs: 400 })));
    expect(error).toMatchObject({ code: 'process-timeout', retryable: true, provider: 'reference-harness' });
  });

  it('turns a crash into a retryable process-crashed whose message quotes stderr without the key it leaked', async () => {
    const error = await failureOf(
      runnerPlaying({
        transcript: [{ type: 'message', role: 'assistant', text: 'half' }],
        stderr: 'segfault in the agent',
        echoEnvironment: ['REFERENCE_HARNESS_API_KEY'],
        crashSignal: 'SIGSEGV',
      }).run(request()),
    );
    expect(error).toMatchObject({ code: 'process-crashed', retryable: true });
    expect(error.message).toContain('was killed by SIGSEGV');
    expect(error.message).toContain('segfault in the agent');
    expect(error.message).toContain('REFERENCE_HARNESS_API_KEY=[redacted]');
    expectNoSecret(error.toJSON());
    expectNoSecret(error.message);
  });

  it('takes the failure the harness reported, with its retryability, over a bare exit code', async () => {
    const error = await failureOf(
      runnerPlaying({ transcript: [{ type: 'error', message: `login expired for key ${API_KEY}`, retryable: false }], exitCode: 1 }).run(request()),
    );
    expect(error).toMatchObject({ code: 'process-crashed', retryable: false });
    expect(error.message).toMatch(/^fake-harness\.mjs reported: login expired for key \[redacted\] \(fake-harness\.mjs exited with code 1/);
  });

  it('never returns an empty answer: a run that ends without one is a retryable reply-empty', async () => {
    const error = await failureOf(runnerPlaying({ transcript: [{ type: 'tool', name: 'ls' }] }).run(request()));
    expect(error).toMatchObject({ code: 'reply-empty', retryable: true });
    const blankAnswerWorkspace = realpathSync(mkdtempSync(path.join(directory, 'blank-')));
    expect((await failureOf(runnerPlaying({ transcript: referenceHarnessTranscript('   ') }).run(request({ workspace: blankAnswerWorkspace })))).code).toBe(
      'reply-empty',
    );
  });

  it('is aborted at once with the reason, and does not start when aborted before', async () => {
    const runner = runnerPlaying(
      { transcript: [{ type: 'message', role: 'assistant', text: 'working' }], exitDelayMs: LONGER_THAN_ANY_TEST_MS, ignoreTerminate: true },
      { terminationGraceMs: LONGER_THAN_ANY_TEST_MS },
    );
    const controller = new AbortController();
    const reason = new Error('run stopped');
    setTimeout(() => controller.abort(reason), 300);
    await expect(runner.run(request({ signal: controller.signal }))).rejects.toBe(reason);

    const invocationFile = path.join(directory, 'never.json');
    await expect(runnerPlaying({ recordInvocationTo: invocationFile }).run(request({ signal: AbortSignal.abort(reason) }))).rejects.toBe(reason);
    expect(existsSync(invocationFile)).toBe(false);
  });

  it('answers a request with a field it does not know and says so; refuses one of the wrong shape', async () => {
    const result = await runnerPlaying({ transcript: referenceHarnessTranscript('42') }).run({ ...request(), sandbox: 'strict' } as AgentRunRequest);
    expect(result.warnings).toEqual([expect.objectContaining({ type: 'unknown-field', field: 'sandbox' })]);
    const invalid: unknown = await runnerPlaying({})
      .run(request({ timeoutMs: -5 }))
      .catch((error: unknown) => error);
    expect(SkillOptError.isInstance(invalid) && [invalid.code, invalid.category]).toEqual(['data-invalid', 'internal']);
  });

  it('leaves lines that are not JSON objects out of the transcript, with a warning', async () => {
    const result = await runnerPlaying({
      transcript: ['Loading model…', '[1,2]', ...referenceHarnessTranscript('42').map((event) => JSON.stringify(event))],
    }).run(request());
    expect(result.finalText).toBe('42');
    expect(result.transcript).toHaveLength(3);
    expect(result.warnings).toEqual([
      expect.objectContaining({ type: 'other', message: expect.stringContaining("2 lines of the harness's output were not JSON objects") }),
    ]);
  });

  it('keeps the start and the end of a long transcript, scrubbed, with a marker in between', async () => {
    const steps = Array.from({ length: 400 }, (_unused, index) => ({ type: 'message', role: 'assistant', text: `step ${index} ${'x'.repeat(40)}` }));
    const result = await runnerPlaying(
      { transcript: [{ type: 'config', key: API_KEY }, ...steps, ...referenceHarnessTranscript('42')] },
      { maxTranscriptBytes: 4_000 },
    ).run(request());
    const kept = JSON.stringify(result.transcript);
    expect(Buffer.byteLength(kept)).toBeLessThan(4_500);
    expect(result.transcript[0]).toEqual({ type: 'config', key: '[redacted]' });
    expect(result.transcript.some((event) => event.type === TRANSCRIPT_SHORTENED_EVENT)).toBe(true);
    expect(result.transcript.at(-1)).toMatchObject({ type: 'result', text: '42' });
    expect(result.warnings).toEqual([expect.objectContaining({ message: expect.stringContaining('transcript was longer than the limit') })]);
    expectNoSecret(result);
  });

  it('refuses a workspace that does not exist, and a request file where the skill goes', async () => {
    const missing: unknown = await runnerPlaying({})
      .run(request({ workspace: path.join(workspace, 'missing') }))
      .catch((error: unknown) => error);
    expect((missing as Error).message).toMatch(/is not an existing directory: the caller creates it/);
    const clash: unknown = await runnerPlaying({})
      .run(request({ files: [{ path: 'AGENTS.md', content: 'the task’s own' }] }))
      .catch((error: unknown) => error);
    expect((clash as Error).message).toContain('already contain AGENTS.md');
  });

  it('waits for the rate limiter of its scope, so runs beyond its concurrency queue', async () => {
    const limiter = createRateLimiter({ maxConcurrency: 1 });
    const runner = createReferenceHarnessRunner({
      directory,
      scenario: { transcript: referenceHarnessTranscript('42'), exitDelayMs: 300 },
      rateLimiter: limiter,
    });
    const secondWorkspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'agent-run-workspace-')));
    try {
      const started = Date.now();
      await Promise.all([runner.run(request()), runner.run(request({ workspace: secondWorkspace }))]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(550);
    } finally {
      rmSync(secondWorkspace, { recursive: true, force: true });
    }
  });

  it('takes its whole harness from a definition: command line, skill strategy and transcript reader', async () => {
    const definition: HarnessDefinition = {
      provider: 'tiny',
      modelId: 'tiny-1',
      skillInstallation: installSkillAsFile('.tiny/skills/main/SKILL.md', { render: (skill) => `---\nname: main\n---\n${skill}` }),
      commandLine: async ({ skillFiles }) => ({
        ...(await prepareFakeHarness(directory, { transcript: [{ answer: skillFiles.join(',') }] })),
        secrets: ['unused-secret'],
      }),
      readTranscript: () => {
        let answer: string | undefined;
        return { readEvent: (event) => void (answer = String(event.answer)), finish: () => (answer === undefined ? {} : { finalText: answer }) };
      },
    };
    const result = await createHarnessRunner(definition).run(request());
    expect(result.finalText).toBe('.tiny/skills/main/SKILL.md');
    expect(readFileSync(path.join(workspace, '.tiny', 'skills', 'main', 'SKILL.md'), 'utf8')).toMatch(/^---\nname: main\n---\n# Skill/);
  });
});
