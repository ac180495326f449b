import { execFile } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { createBubblewrapSandbox, DEFAULT_SANDBOX_LIMITS, type Sandbox } from '../src/index';
import { createSandboxCase, PYTHON, processesOfUser, remainingProcessesOfUser, type SandboxCase } from './sandbox-fixtures';

// Each test runs Python or a shell in a sandbox, several runs for some and up to a time limit of
// seconds for others, which a loaded machine slows many times over: the limit is there to catch a
// hang, not to time the runs.
jest.setTimeout(300_000);

const runOnHost = promisify(execFile);
// A uid of these tests' own, so that counting its processes on the host sees no other sandbox's.
const LIMITS_TEST_USER = 23_101;

let sandbox: Sandbox;
let sandboxCase: SandboxCase;

beforeAll(async () => {
  sandbox = await createBubblewrapSandbox({ userId: LIMITS_TEST_USER, groupId: LIMITS_TEST_USER });
});
beforeEach(() => {
  sandboxCase = createSandboxCase();
});
afterEach(() => sandboxCase.remove());

describe('the bubblewrap sandbox: limits', () => {
  it('has defaults sized for one Python script on a workbook, and `import pandas, openpyxl` fits in them', async () => {
    expect(DEFAULT_SANDBOX_LIMITS).toEqual({ timeoutMs: 60_000, memoryBytes: 2 ** 31, fileSizeBytes: 64 * 2 ** 20, processes: 64, outputBytes: 2 ** 20 });
    const result = await sandbox.run({ command: PYTHON, args: ['-c', 'import pandas, openpyxl; print("imported")'], workDirectory: sandboxCase.workDirectory });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'imported\n', limitsReached: [] });
  });

  it('ends a fork bomb as a failure while the host keeps starting processes, and leaves none of it running', async () => {
    // Every process forks again and again, waiting a moment whenever the limit refuses it.
    const bomb = sandbox.run({
      command: PYTHON,
      args: ['-c', 'import os, time\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        time.sleep(0.01)'],
      workDirectory: sandboxCase.workDirectory,
      limits: { timeoutMs: 8_000 },
    });
    for (let tries = 0; tries < 500 && processesOfUser(LIMITS_TEST_USER).length < DEFAULT_SANDBOX_LIMITS.processes; tries++)
      await new Promise((resolve) => setTimeout(resolve, 10));
    const atTheLimit = processesOfUser(LIMITS_TEST_USER).length;
    // Meanwhile, on the host: each of these must start and finish.
    const hostOutputs: string[] = [];
    for (let index = 0; index < 5; index++) hostOutputs.push((await runOnHost('/bin/echo', [`host process ${index}`])).stdout);
    const result = await bomb;
    expect(atTheLimit).toBe(DEFAULT_SANDBOX_LIMITS.processes);
    expect(hostOutputs).toEqual(['host process 0\n', 'host process 1\n', 'host process 2\n', 'host process 3\n', 'host process 4\n']);
    expect(result).toMatchObject({ timedOut: true, exitCode: null, limitsReached: ['timeout'] });
    expect(await remainingProcessesOfUser(LIMITS_TEST_USER)).toEqual([]);
  });

  it('counts the process limit per run: a run at its limit does not keep another from starting processes', async () => {
    const crowded = sandbox.run({
      command: '/bin/sh',
      args: ['-c', 'for i in 1 2 3 4 5 6 7; do sleep 30 & done; wait'],
      workDirectory: sandboxCase.workDirectory,
      limits: { processes: 8, timeoutMs: 4_000 },
    });
    for (let tries = 0; tries < 100 && processesOfUser(LIMITS_TEST_USER).length < 8; tries++) await new Promise((resolve) => setTimeout(resolve, 25));
    expect(processesOfUser(LIMITS_TEST_USER)).toHaveLength(8);
    const other = createSandboxCase();
    try {
      // Its forks count against its own limit; were the count the uid's across runs, they would fail.
      const beside = await sandbox.run({
        command: '/bin/sh',
        args: ['-c', 'sleep 0 & sleep 0 & sleep 0 & wait; echo beside'],
        workDirectory: other.workDirectory,
        limits: { processes: 8 },
      });
      expect(beside).toMatchObject({ exitCode: 0, stdout: 'beside\n', stderr: '' });
    } finally {
      other.remove();
    }
    expect(await crowded).toMatchObject({ timedOut: true, stderr: '' });
  });

  it('kills an endless loop at the timeout, with everything it started: a background child never writes its file', async () => {
    const result = await sandbox.run({
      command: '/bin/sh',
      args: ['-c', '(echo started > child-started; sleep 4; echo late > child-finished) & while :; do :; done'],
      workDirectory: sandboxCase.workDirectory,
      limits: { timeoutMs: 2_000 },
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL', limitsReached: ['timeout'] });
    expect(existsSync(path.join(sandboxCase.workDirectory, 'child-started'))).toBe(true);
    expect(await remainingProcessesOfUser(LIMITS_TEST_USER)).toEqual([]);
    // Past the moment the child would have written: nothing may appear.
    await new Promise((resolve) => setTimeout(resolve, 4_500));
    expect(existsSync(path.join(sandboxCase.workDirectory, 'child-finished'))).toBe(false);
  });

  it('ends a Python run that allocates 4 GiB with a MemoryError', async () => {
    const result = await sandbox.run({
      command: PYTHON,
      args: ['-c', 'block = bytearray(4 * 1024 ** 3); print("allocated")'],
      workDirectory: sandboxCase.workDirectory,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('MemoryError');
  });

  it('stops a Python run writing a 100 MiB file at 64 MiB ("File too large"), and a shell one by SIGXFSZ, reported as the file-size limit', async () => {
    const result = await sandbox.run({
      command: PYTHON,
      args: ['-c', 'chunk = b"x" * 2 ** 20\nwith open("big.bin", "wb") as file:\n    for _ in range(100): file.write(chunk)'],
      workDirectory: sandboxCase.workDirectory,
    });
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toContain('File too large');
    expect(statSync(path.join(sandboxCase.workDirectory, 'big.bin')).size).toBe(DEFAULT_SANDBOX_LIMITS.fileSizeBytes);

    const shell = await sandbox.run({ command: '/bin/sh', args: ['-c', 'head -c 104857600 /dev/zero > big.bin'], workDirectory: sandboxCase.workDirectory });
    expect(shell).toMatchObject({ exitCode: 128 + 25, limitsReached: ['file-size'] });
    expect(statSync(path.join(sandboxCase.workDirectory, 'big.bin')).size).toBe(DEFAULT_SANDBOX_LIMITS.fileSizeBytes);
  });

  it('cuts output past the limit, keeping its tail', async () => {
    const result = await sandbox.run({
      command: PYTHON,
      args: ['-c', 'print("x" * 5000 + "the end")'],
      workDirectory: sandboxCase.workDirectory,
      limits: { outputBytes: 1000 },
    });
    expect(result).toMatchObject({ exitCode: 0, stdoutTruncated: true, limitsReached: ['output'] });
    expect(Buffer.byteLength(result.stdout)).toBe(1000);
    expect(result.stdout.endsWith('the end\n')).toBe(true);
  });

  it('stops the run when the signal aborts, and rejects with its reason', async () => {
    const controller = new AbortController();
    const run = sandbox.run({
      command: '/bin/sh',
      args: ['-c', 'echo started > started; sleep 30'],
      workDirectory: sandboxCase.workDirectory,
      signal: controller.signal,
    });
    for (let tries = 0; tries < 200 && !existsSync(path.join(sandboxCase.workDirectory, 'started')); tries++)
      await new Promise((resolve) => setTimeout(resolve, 25));
    controller.abort(new Error('the rollout was cancelled'));
    await expect(run).rejects.toThrow('the rollout was cancelled');
    expect(await remainingProcessesOfUser(LIMITS_TEST_USER)).toEqual([]);
  });
});
