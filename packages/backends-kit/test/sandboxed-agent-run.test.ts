import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { homedir, tmpdir } from 'node:os';
import path from 'node:path';
import { ProviderError, SkillOptError, type AgentRunRequest, type TranscriptEvent } from '@skillopt/contract';
import { createBubblewrapSandbox } from '@skillopt/runtime-kit';
import { installSkillAsFile, runAgentHarness, type HarnessDefinition } from '../src/index';
import { prepareFakeHarness, referenceHarnessTranscript, type FakeHarnessInvocation, type FakeHarnessScenario } from '../src/testing';

// Each test runs the harness in a sandbox (bubblewrap, then a Node start), some tests several
// times, which a loaded machine slows many times over: the limit is there to catch a hang, not to
// time the runs.
jest.setTimeout(300_000);

// The agent-run flow with `isolation: 'sandbox'`: the fake harness, a real Node program, started in
// bubblewrap as the flow starts every harness, and what it could see, reach and write.

const API_KEY = 'sk-sandboxed-0123456789abcdefghij';
let root: string;
let harnessDirectory: string;
let workspace: string;
let stateDirectory: string;
let besideWorkspace: string;
let homeMarker: string;
let server: http.Server;
let serverUrl: string;

beforeAll(async () => {
  server = http.createServer((_request, response) => response.end('model'));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  serverUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/models`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  root = realpathSync(mkdtempSync(path.join(tmpdir(), 'sandboxed-agent-run-')));
  harnessDirectory = path.join(root, 'harness');
  workspace = path.join(root, 'run', 'workspace');
  stateDirectory = path.join(root, 'state');
  besideWorkspace = path.join(root, 'run', 'answer.txt');
  for (const directory of [harnessDirectory, workspace, stateDirectory]) mkdirSync(directory, { recursive: true });
  writeFileSync(besideWorkspace, 'the gold answer');
  writeFileSync(path.join(stateDirectory, 'settings.json'), '{"theme":"dark"}');
  homeMarker = path.join(homedir(), `.sandboxed-agent-run-${path.basename(root)}`);
  writeFileSync(homeMarker, 'a file of the user');
});
afterEach(() => {
  rmSync(root, { recursive: true, force: true });
  rmSync(homeMarker, { force: true });
});

function definition(scenario: FakeHarnessScenario, overrides: Partial<HarnessDefinition> = {}): HarnessDefinition {
  return {
    provider: 'sandboxed-harness',
    modelId: 'reference-model',
    skillInstallation: installSkillAsFile('AGENTS.md'),
    async commandLine() {
      const { command, args } = await prepareFakeHarness(harnessDirectory, scenario);
      return { command, args, allowedEnvironmentVariables: ['PATH', 'HOME'], environment: { HARNESS_API_KEY: API_KEY }, statePaths: [stateDirectory] };
    },
    readTranscript() {
      let answer: string | undefined;
      let usage: { inputTokens: number; outputTokens: number } | undefined;
      return {
        readEvent(event: TranscriptEvent) {
          if (event.type !== 'result') return;
          answer = String(event.text);
          const reported = event.usage as { input_tokens: number; output_tokens: number } | undefined;
          if (reported) usage = { inputTokens: reported.input_tokens, outputTokens: reported.output_tokens };
        },
        finish: () => ({ ...(answer === undefined ? {} : { finalText: answer }), ...(usage ? { usage } : {}) }),
      };
    },
    terminationGraceMs: 200,
    ...overrides,
  };
}

function request(overrides: Partial<AgentRunRequest> = {}): AgentRunRequest {
  return {
    skill: '# Skill',
    prompt: 'Answer.',
    workspace,
    files: [{ path: 'task.md', content: 'the task' }],
    timeoutMs: 20_000,
    purpose: 'rollout',
    isolation: 'sandbox',
    ...overrides,
  };
}

let workspaces = 0;
/** Another workspace beside the first, for a test of several runs. */
function freshWorkspace(): string {
  workspaces += 1;
  const directory = path.join(root, 'run', `workspace-${workspaces}`);
  mkdirSync(directory);
  return directory;
}

async function failureOf(promise: Promise<unknown>): Promise<SkillOptError> {
  try {
    await promise;
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the run to fail');
}

describe('the agent-run flow with isolation: sandbox', () => {
  it('runs the harness as uid 65534 seeing only its workspace, its state and its install, with the network shared and its writes in the workspace', async () => {
    expect(process.getuid?.()).toBe(0);
    const invocationFile = path.join(stateDirectory, 'invocation.json');
    const repositoryFile = path.resolve(__dirname, '..', 'package.json');
    const result = await runAgentHarness(
      definition({
        transcript: referenceHarnessTranscript('<answer>42</answer>', { inputTokens: 700, outputTokens: 20 }),
        recordInvocationTo: invocationFile,
        writeFiles: [{ path: 'outputs/answer.txt', content: 'written by the agent' }],
        probePaths: [path.join(workspace, 'task.md'), path.join(stateDirectory, 'settings.json'), besideWorkspace, homeMarker, repositoryFile, '/etc/shadow'],
        probeUrl: serverUrl,
      }),
      request(),
    );

    expect(result).toMatchObject({
      finalText: '<answer>42</answer>',
      usage: { inputTokens: 700, outputTokens: 20 },
      exitStatus: { code: 0, signal: null, timedOut: false },
    });
    expect(result.transcript.map((event) => event.type)).toEqual(['message', 'tool', 'result']);
    const invocation = JSON.parse(readFileSync(invocationFile, 'utf8')) as FakeHarnessInvocation;
    expect(invocation).toMatchObject({ userId: 65534, cwd: workspace, stdin: 'Answer.', files: ['AGENTS.md', 'task.md'], fetched: 200 });
    expect(invocation.probes).toEqual({
      [path.join(workspace, 'task.md')]: { exists: true, readable: true },
      [path.join(stateDirectory, 'settings.json')]: { exists: true, readable: true },
      [besideWorkspace]: { exists: false, readable: false },
      [homeMarker]: { exists: false, readable: false },
      [repositoryFile]: { exists: false, readable: false },
      '/etc/shadow': { exists: false, readable: false },
    });
    // A private HOME, not this process's: a folder of its own, gone after the run.
    expect(invocation.home).not.toBe(homedir());
    expect(invocation.home?.startsWith(tmpdir())).toBe(true);
    expect(readdirSync(tmpdir()).filter((name) => name === path.basename(invocation.home ?? ''))).toEqual([]);
    // The environment is the allowlist and the harness's extras, nothing else of this process.
    expect(invocation.environment.filter((name) => !['PWD', 'LANG', 'TMPDIR'].includes(name))).toEqual(['HARNESS_API_KEY', 'HOME', 'PATH']);
    expect(readFileSync(path.join(workspace, 'outputs', 'answer.txt'), 'utf8')).toBe('written by the agent');
    expect(statSync(path.join(workspace, 'outputs', 'answer.txt')).uid).toBe(65534);
  });

  it('keeps a HOME the harness sets to one of its state folders', async () => {
    const invocationFile = path.join(stateDirectory, 'invocation.json');
    const harness = definition({ transcript: referenceHarnessTranscript('done'), recordInvocationTo: invocationFile });
    const commandLine = harness.commandLine;
    await runAgentHarness(
      {
        ...harness,
        commandLine: async (context) => {
          const line = await commandLine(context);
          return { ...line, environment: { ...line.environment, HOME: stateDirectory } };
        },
      },
      request(),
    );
    expect((JSON.parse(readFileSync(invocationFile, 'utf8')) as FakeHarnessInvocation).home).toBe(stateDirectory);
  });

  it('maps failures as without the sandbox: a non-zero exit is a retryable process-crashed quoting stderr without the key, a hang a process-timeout', async () => {
    const crashed = await failureOf(runAgentHarness(definition({ exitCode: 3, stderr: 'broken', echoEnvironment: ['HARNESS_API_KEY'] }), request()));
    expect(ProviderError.isInstance(crashed)).toBe(true);
    expect(crashed).toMatchObject({ code: 'process-crashed', retryable: true });
    expect(crashed.message).toContain('broken');
    expect(crashed.message).not.toContain(API_KEY);
    const timedOut = await failureOf(
      runAgentHarness(definition({ exitDelayMs: 60_000, ignoreTerminate: true }), request({ timeoutMs: 500, workspace: freshWorkspace() })),
    );
    expect(timedOut).toMatchObject({ code: 'process-timeout', retryable: true });
    const empty = await failureOf(runAgentHarness(definition({ transcript: [] }), request({ workspace: freshWorkspace() })));
    expect(empty).toMatchObject({ code: 'reply-empty' });
  });

  it('warns unsupported-setting for allowedCommands unless the harness says it limits commands', async () => {
    const plain = await runAgentHarness(
      definition({ transcript: referenceHarnessTranscript('done') }),
      request({ allowedCommands: ['python3'], isolation: 'process' }),
    );
    expect(plain.warnings).toEqual([expect.objectContaining({ type: 'unsupported-setting', field: 'allowedCommands' })]);
    expect(plain.warnings?.[0]?.message).toContain('python3');
    const limiting = await runAgentHarness(
      definition({ transcript: referenceHarnessTranscript('done') }, { limitsCommands: true }),
      request({ allowedCommands: ['python3'], workspace: freshWorkspace() }),
    );
    expect(limiting.warnings).toBeUndefined();
  });

  it('refuses a harness installed in a folder that holds its workspace, whose read-only bind would show what lies beside the workspace', async () => {
    const besideHarness = path.join(root, 'run');
    const harness = definition({ transcript: referenceHarnessTranscript('done') });
    const error = await failureOf(
      runAgentHarness(
        {
          ...harness,
          async commandLine() {
            const { command, args } = await prepareFakeHarness(besideHarness, {});
            return { command, args };
          },
        },
        request(),
      ),
    );
    expect(error).toMatchObject({ code: 'config-invalid' });
    expect(error.message).toContain(besideHarness);
  });

  it('fails with a non-retryable sandbox-unavailable naming the fix when bubblewrap is missing, before anything is written or run', async () => {
    const invocationFile = path.join(stateDirectory, 'invocation.json');
    const error = await failureOf(
      runAgentHarness(
        definition(
          { transcript: referenceHarnessTranscript('unconfined'), recordInvocationTo: invocationFile },
          {
            sandbox: () => createBubblewrapSandbox({ bubblewrapPath: path.join(root, 'no-such-bwrap') }),
          },
        ),
        request(),
      ),
    );
    expect(error).toMatchObject({ code: 'sandbox-unavailable', retryable: false });
    expect(error.message).toContain('apt-get install -y bubblewrap');
    expect(readdirSync(workspace)).toEqual([]);
    expect(readdirSync(stateDirectory)).toEqual(['settings.json']);
  });
});
