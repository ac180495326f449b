import { chmodSync, chownSync, linkSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { bubblewrapArguments } from '../src/bubblewrap-arguments';
import { createBubblewrapSandbox, createUnsandboxedRunner, DEFAULT_SANDBOX_LIMITS, runProcess } from '../src/index';
import { createSandboxCase, PYTHON, type SandboxCase } from './sandbox-fixtures';

let sandboxCase: SandboxCase;
beforeEach(() => {
  sandboxCase = createSandboxCase();
});
afterEach(() => sandboxCase.remove());

async function rejection(promise: Promise<unknown>): Promise<SkillOptError> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(SkillOptError.isInstance(error)).toBe(true);
  return error as SkillOptError;
}

/** An executable shell script that stands in for bwrap. */
function fakeBubblewrap(directory: string, script: string): string {
  const file = path.join(directory, 'bwrap');
  writeFileSync(file, `#!/bin/sh\n${script}\n`, { mode: 0o755 });
  return file;
}

describe('createBubblewrapSandbox: when it cannot run', () => {
  it('rejects a bwrap path that does not exist, naming it, with the install command as remedy', async () => {
    const error = await rejection(createBubblewrapSandbox({ bubblewrapPath: '/nonexistent/bin/bwrap' }));
    expect(error).toMatchObject({ code: ERROR_CODES.sandboxUnavailable, category: 'user', retryable: false });
    expect(error.message).toContain('bubblewrap was not found at /nonexistent/bin/bwrap');
    expect(error.details?.remedy).toContain('apt-get install -y bubblewrap');
    expect(error.message).toContain('apt-get install -y bubblewrap');
  });

  it('rejects a program that is not bubblewrap', async () => {
    const impostor = fakeBubblewrap(sandboxCase.root, 'echo "usage: something else"; exit 1');
    const error = await rejection(createBubblewrapSandbox({ bubblewrapPath: impostor }));
    expect(error.code).toBe(ERROR_CODES.sandboxUnavailable);
    expect(error.message).toContain(`${impostor} --version did not print a bubblewrap version (usage: something else)`);
  });

  it('rejects when the trial run fails, with bubblewrap’s own words and, for a namespace refused, the sysctl to allow it', async () => {
    const refused = fakeBubblewrap(
      sandboxCase.root,
      'if [ "$1" = --version ]; then echo "bubblewrap 0.8.0"; exit 0; fi\n' +
        'echo "bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces." >&2; exit 1',
    );
    const error = await rejection(createBubblewrapSandbox({ bubblewrapPath: refused }));
    expect(error.code).toBe(ERROR_CODES.sandboxUnavailable);
    expect(error.details?.reason).toBe(
      `a trial run of ${refused} failed (exit 1: bwrap: No permissions to creating new namespace, likely because the kernel does not allow non-privileged user namespaces.)`,
    );
    expect(error.details?.remedy).toContain('sysctl -w kernel.unprivileged_userns_clone=1');
  });

  it('refuses nonsensical options and requests as config errors (a missing path, a hard link out of the work directory)', async () => {
    expect((await rejection(createBubblewrapSandbox({ limits: { processes: 0 } }))).message).toBe(
      'limits.processes must be a whole number of at least 1, got 0',
    );
    const sandbox = await createBubblewrapSandbox();
    const missing = path.join(sandboxCase.root, 'missing');
    expect(await rejection(sandbox.run({ command: '/usr/bin/true', workDirectory: missing }))).toMatchObject({
      code: ERROR_CODES.configInvalid,
      message: `workDirectory: ${missing} does not exist`,
    });
    expect(await rejection(sandbox.run({ command: '/usr/bin/true', workDirectory: sandboxCase.workDirectory, readOnlyPaths: [missing] }))).toMatchObject({
      code: ERROR_CODES.configInvalid,
      message: `readOnlyPaths: ${missing} does not exist`,
    });
    // A hard link would let the run write to the answer through its second name.
    linkSync(sandboxCase.answerPath, path.join(sandboxCase.workDirectory, 'linked.xlsx'));
    expect(await rejection(sandbox.run({ command: '/usr/bin/true', workDirectory: sandboxCase.workDirectory }))).toMatchObject({
      code: ERROR_CODES.configInvalid,
      message: `workDirectory: ${path.join(sandboxCase.workDirectory, 'linked.xlsx')} is a hard link to a file elsewhere; put a copy in the work directory instead`,
    });
    expect(statSync(sandboxCase.answerPath).uid).toBe(0);
  });
});

describe('the bubblewrap sandbox for a caller that is not root', () => {
  it('runs in a user namespace of bubblewrap’s own, as the caller, without network, with the limits', async () => {
    // A caller that is not root, played by setpriv; its work directory is one it can reach and write.
    const root = mkdtempSync(path.join(tmpdir(), 'sandbox-caller-'));
    try {
      chmodSync(root, 0o755);
      chownSync(root, 65534, 65534);
      writeFileSync(
        path.join(root, 'solve.py'),
        'import os, resource, socket\nprint(os.getuid(), resource.getrlimit(resource.RLIMIT_NPROC)[0])\nopen("out.txt", "w").write("written")\n' +
          'try:\n    socket.socket(socket.AF_INET, socket.SOCK_DGRAM).connect(("198.51.100.1", 9))\nexcept OSError as error:\n    print(error.strerror)\n',
      );
      const args = bubblewrapArguments({
        mode: 'as-caller',
        userId: 65534,
        groupId: 65534,
        workDirectory: root,
        readWritePaths: [],
        readOnlyPaths: [],
        network: 'none',
        limits: { ...DEFAULT_SANDBOX_LIMITS, processes: 16 },
        command: PYTHON,
        args: ['solve.py'],
      });
      expect(args).toContain('--unshare-all');
      expect(args).not.toContain('/usr/bin/setpriv');
      const result = await runProcess({
        command: '/usr/bin/setpriv',
        args: ['--reuid=65534', '--regid=65534', '--clear-groups', '--', '/usr/bin/bwrap', ...args],
        allowedEnvironmentVariables: [],
        extraEnvironmentVariables: { PATH: '/usr/bin' },
      });
      expect(result).toMatchObject({ exitCode: 0, stdout: '65534 16\nNetwork is unreachable\n' });
      expect(readFileSync(path.join(root, 'out.txt'), 'utf8')).toBe('written');
      expect(
        bubblewrapArguments({
          mode: 'as-caller',
          userId: 1,
          groupId: 1,
          workDirectory: root,
          readWritePaths: [],
          readOnlyPaths: [],
          network: 'shared',
          limits: DEFAULT_SANDBOX_LIMITS,
          command: 'x',
          args: [],
        }),
      ).toContain('--share-net');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('createUnsandboxedRunner', () => {
  it('runs a command in the work directory with the request’s environment alone, the limits where it can, and says loudly that it is not sandboxed', async () => {
    const runner = createUnsandboxedRunner();
    expect(runner.kind).toBe('unsandboxed');
    expect(runner.description).toMatch(/^NOT SANDBOXED: /);
    expect(runner.description).toContain('access to every file and to the network');
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-must-not-leak';
    try {
      const result = await runner.run({
        command: '/bin/sh',
        args: ['-c', 'pwd; echo "$CASE_ID"; printenv OPENAI_API_KEY || echo absent; cat input.xlsx; echo; cat ../answer.xlsx'],
        workDirectory: sandboxCase.workDirectory,
        environment: { CASE_ID: '17' },
      });
      // Nothing hides the answer beside the work directory: that is what it means to be unsandboxed.
      expect(result).toMatchObject({
        exitCode: 0,
        stdout: `${sandboxCase.workDirectory}\n17\nabsent\nthe input workbook\nthe gold workbook`,
        limitsReached: [],
      });
    } finally {
      if (previous === undefined) delete process.env.OPENAI_API_KEY;
      else process.env.OPENAI_API_KEY = previous;
    }
    const tooLarge = await runner.run({
      command: '/bin/sh',
      args: ['-c', 'head -c 2097152 /dev/zero > big.bin'],
      workDirectory: sandboxCase.workDirectory,
      limits: { fileSizeBytes: 2 ** 20 },
    });
    expect(tooLarge).toMatchObject({ exitCode: 128 + 25, limitsReached: ['file-size'] });
    const slow = await runner.run({ command: '/bin/sleep', args: ['30'], workDirectory: sandboxCase.workDirectory, limits: { timeoutMs: 500 } });
    expect(slow).toMatchObject({ timedOut: true, limitsReached: ['timeout'] });
  });
});
