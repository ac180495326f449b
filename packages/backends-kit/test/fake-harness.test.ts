import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync, existsSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parseJsonLines, runProcess } from '../src/index';
import { installFakeHarness, prepareFakeHarness, type FakeHarnessInvocation } from '../src/testing';

let directory: string;
let workspace: string;
beforeEach(() => {
  directory = realpathSync(mkdtempSync(path.join(tmpdir(), 'fake-harness-')));
  workspace = realpathSync(mkdtempSync(path.join(tmpdir(), 'fake-harness-workspace-')));
});
afterEach(() => {
  rmSync(directory, { recursive: true, force: true });
  rmSync(workspace, { recursive: true, force: true });
});

describe('the fake harness', () => {
  it('is an executable script with a shebang', async () => {
    const program = await installFakeHarness(directory);
    expect(readFileSync(program, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);
    expect(statSync(program).mode & 0o111).not.toBe(0);
  });

  it('replays its transcript on stdout, line by line, malformed lines included, and exits with the chosen code', async () => {
    const recorded = path.join(directory, 'recorded.jsonl');
    writeFileSync(recorded, '{"type":"from-file","n":1}\n{"type":"from-file","n":2}\n');
    const { command, args } = await prepareFakeHarness(directory, {
      transcript: [{ type: 'message', text: 'hello' }, 'not json at all'],
      transcriptFile: recorded,
      exitCode: 3,
      stderr: 'something went wrong',
    });
    const result = await runProcess({ command, args, timeoutMs: 10_000 });
    expect(result.exitCode).toBe(3);
    expect(result.stderr).toBe('something went wrong\n');
    const { records, malformedLines } = parseJsonLines(result.stdout);
    expect(records).toEqual([
      { type: 'message', text: 'hello' },
      { type: 'from-file', n: 1 },
      { type: 'from-file', n: 2 },
    ]);
    expect(malformedLines.map((line) => line.text)).toEqual(['not json at all']);
  });

  it('crashes with the chosen signal', async () => {
    const { command, args } = await prepareFakeHarness(directory, { transcript: [{ type: 'start' }], crashSignal: 'SIGSEGV' });
    const result = await runProcess({ command, args, timeoutMs: 10_000 });
    expect(result).toMatchObject({ exitCode: null, signal: 'SIGSEGV', timedOut: false });
  });

  it('hangs for its exit delay once its transcript is out, and with ignoreTerminate only SIGKILL ends it', async () => {
    const { command, args } = await prepareFakeHarness(directory, { transcript: [{ type: 'start' }], exitDelayMs: 60_000, ignoreTerminate: true });
    const harness = spawn(command, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    const exitSignal = new Promise<NodeJS.Signals | null>((resolve) => harness.once('exit', (_code, signal) => resolve(signal)));
    // Signalled once it has printed, not at a time a loaded machine may reach before it is running.
    let stdout = '';
    await new Promise<void>((resolve) =>
      harness.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString();
        if (stdout.endsWith('\n')) resolve();
      }),
    );
    harness.kill('SIGTERM');
    // Time for a harness that heeded SIGTERM to die of it; however slow the machine, one that
    // ignores it is still there for the SIGKILL.
    await new Promise((resolve) => setTimeout(resolve, 200));
    harness.kill('SIGKILL');
    expect(await exitSignal).toBe('SIGKILL');
    expect(stdout).toBe('{"type":"start"}\n');
  });

  it('reads its prompt from stdin, records what it was given, writes files into its workspace and can leak its environment', async () => {
    const invocationFile = path.join(directory, 'invocation.json');
    writeFileSync(path.join(workspace, 'task.txt'), 'the task');
    const { command, args } = await prepareFakeHarness(directory, {
      recordInvocationTo: invocationFile,
      writeFiles: [{ path: 'out/answer.txt', content: '42' }],
      echoEnvironment: ['HARNESS_API_KEY'],
    });
    const result = await runProcess({
      command,
      args,
      cwd: workspace,
      stdin: 'What is 6 × 7?',
      allowedEnvironmentVariables: ['PATH'],
      extraEnvironmentVariables: { HARNESS_API_KEY: 'sk-harness-0123456789' },
      timeoutMs: 10_000,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stderr).toBe('HARNESS_API_KEY=sk-harness-0123456789\n');
    const invocation = JSON.parse(readFileSync(invocationFile, 'utf8')) as FakeHarnessInvocation;
    expect(invocation).toMatchObject({ cwd: workspace, stdin: 'What is 6 × 7?', files: ['task.txt'] });
    expect(invocation.environment).toEqual(expect.arrayContaining(['HARNESS_API_KEY', 'PATH']));
    expect(invocation.environment).not.toContain('HOME');
    expect(readFileSync(path.join(workspace, 'out', 'answer.txt'), 'utf8')).toBe('42');
    expect(existsSync(invocationFile)).toBe(true);
  });
});
