import { mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { runProcess } from '../src/index';

const node = process.execPath;
// A timeout that cuts a child short must leave it time to start and set its traps first, even on a
// loaded machine: these tests are about what happens after the timeout, not about how soon it
// comes. Their children are shell scripts, which start in milliseconds even at a load of 20 on two
// cores, where a Node child took 2.5 s.
const SHELL_START_MARGIN_MS = 3000;
// Longer than any test's limit: a run that waited out a grace period this long would fail its test.
const LONGER_THAN_ANY_TEST_MS = 3_600_000;

/**
 * Whether a process no longer exists. A killed process whose parent died too is briefly a zombie
 * until init reaps it; it runs nothing any more, so a zombie counts as gone.
 */
function isGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
  try {
    const state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    return state === 'Z';
  } catch {
    return false;
  }
}

/** Polls briefly: a SIGKILL is delivered at once but the process table updates asynchronously. */
async function expectGone(pid: number): Promise<void> {
  for (let tries = 0; tries < 100 && !isGone(pid); tries++) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(isGone(pid)).toBe(true);
}

describe('runProcess', () => {
  it('feeds the prompt to stdin and captures stdout, stderr and the exit code', async () => {
    const result = await runProcess({
      command: node,
      args: [
        '-e',
        'let text = ""; process.stdin.on("data", (d) => (text += d)); process.stdin.on("end", () => { process.stdout.write(text.toUpperCase()); process.stderr.write("done"); process.exit(3); });',
      ],
      stdin: 'summarise this skill document ✓',
    });
    expect(result).toMatchObject({
      exitCode: 3,
      signal: null,
      timedOut: false,
      stdout: 'SUMMARISE THIS SKILL DOCUMENT ✓',
      stderr: 'done',
      stdoutTruncated: false,
      stderrTruncated: false,
    });
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
  });

  it('holds a conversation over stdin: each request is written only after the reply to the last one, and the end closes stdin', async () => {
    const replies: string[] = [];
    let answered: (() => void) | undefined;
    async function* requests(): AsyncGenerator<string> {
      for (const word of ['first', 'second']) {
        const reply = new Promise<void>((resolve) => (answered = resolve));
        yield `${word}\n`;
        await reply;
      }
    }
    const result = await runProcess({
      command: node,
      args: [
        '-e',
        'let count = 0; require("node:readline").createInterface({ input: process.stdin }).on("line", (line) => console.log(++count + ":" + line.toUpperCase())).on("close", () => console.log("closed"));',
      ],
      stdin: requests(),
      onStdoutLine: (line) => {
        replies.push(line);
        answered?.();
      },
      timeoutMs: 20_000,
    });
    expect(replies).toEqual(['1:FIRST', '2:SECOND', 'closed']);
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
  });

  it('gives the child /dev/null as stdin when there is no prompt, so it never waits for input', async () => {
    const result = await runProcess({
      command: node,
      args: ['-e', 'process.stdin.on("data", () => {}); process.stdin.on("end", () => console.log("eof"));'],
      timeoutMs: 20_000,
    });
    expect(result).toMatchObject({ exitCode: 0, stdout: 'eof\n', timedOut: false });
  });

  it('keeps only the tail of output past maxOutputBytes, says so, and still streams every line', async () => {
    const lines: string[] = [];
    const result = await runProcess({
      command: node,
      args: ['-e', 'for (let i = 0; i < 2000; i++) console.log("line " + i); process.stderr.write("e".repeat(5000) + "FATAL");'],
      maxOutputBytes: 1000,
      onStdoutLine: (line) => lines.push(line),
    });
    expect(result.stdoutTruncated).toBe(true);
    expect(Buffer.byteLength(result.stdout)).toBe(1000);
    expect(result.stdout.endsWith('line 1999\n')).toBe(true);
    expect(result.stderrTruncated).toBe(true);
    expect(result.stderr.endsWith('FATAL')).toBe(true);
    expect(Buffer.byteLength(result.stderr)).toBe(1000);
    expect(lines).toHaveLength(2000);
    expect(lines[0]).toBe('line 0');
    expect(lines[1999]).toBe('line 1999');
  });

  it('kills a hung child together with the grandchild it started (a background job) when the timeout passes', async () => {
    const result = await runProcess({ command: 'sh', args: ['-c', 'sleep 100 & echo $!; sleep 100'], timeoutMs: SHELL_START_MARGIN_MS });
    expect(result).toMatchObject({ timedOut: true, exitCode: null, signal: 'SIGKILL' });
    const grandchildPid = Number(result.stdout.trim());
    expect(grandchildPid).toBeGreaterThan(0);
    await expectGone(grandchildPid);
  });

  it('kills what the child left running in its group once it exits, instead of waiting for it', async () => {
    const result = await runProcess({ command: 'sh', args: ['-c', 'sleep 100 & echo $!'], timeoutMs: 20_000 });
    expect(result).toMatchObject({ exitCode: 0, timedOut: false });
    await expectGone(Number(result.stdout.trim()));
  });

  it('sends SIGTERM first when given a grace period, so the child can flush', async () => {
    const result = await runProcess({
      command: 'sh',
      // `wait` returns as soon as a trapped signal arrives; the shell runs the trap then.
      args: ['-c', 'trap "echo flushed on SIGTERM; exit 0" TERM; echo ready; sleep 100 & wait'],
      timeoutMs: SHELL_START_MARGIN_MS,
      terminationGraceMs: 10_000,
    });
    expect(result).toMatchObject({ timedOut: true, exitCode: 0, stdout: 'ready\nflushed on SIGTERM\n' });
  });

  it('follows a SIGTERM the child ignores with SIGKILL after the grace period', async () => {
    const result = await runProcess({
      command: 'sh',
      // An ignored signal stays ignored in the commands the shell runs, so `sleep` ignores it too.
      args: ['-c', 'trap "" TERM; echo ready; sleep 100'],
      timeoutMs: SHELL_START_MARGIN_MS,
      terminationGraceMs: 300,
    });
    expect(result).toMatchObject({ timedOut: true, signal: 'SIGKILL', stdout: 'ready\n' });
  });

  it('passes only allowlisted variables and explicit extras to the child', async () => {
    process.env.SKILLOPT_TEST_SECRET = 'sk-do-not-leak';
    process.env.SKILLOPT_TEST_ALLOWED = 'visible';
    try {
      const printEnvironment = ['-e', 'console.log(JSON.stringify(process.env))'];
      const byDefault = JSON.parse((await runProcess({ command: node, args: printEnvironment })).stdout) as Record<string, string>;
      expect(byDefault.SKILLOPT_TEST_SECRET).toBeUndefined();
      expect(byDefault.SKILLOPT_TEST_ALLOWED).toBeUndefined();
      expect(byDefault.PATH).toBe(process.env.PATH);

      const chosen = JSON.parse(
        (
          await runProcess({
            command: node,
            args: printEnvironment,
            allowedEnvironmentVariables: ['PATH', 'SKILLOPT_TEST_ALLOWED'],
            extraEnvironmentVariables: { HARNESS_API_KEY: 'given-explicitly' },
          })
        ).stdout,
      ) as Record<string, string>;
      expect(chosen.SKILLOPT_TEST_SECRET).toBeUndefined();
      expect(chosen.SKILLOPT_TEST_ALLOWED).toBe('visible');
      expect(chosen.HARNESS_API_KEY).toBe('given-explicitly');
      expect(chosen.HOME).toBeUndefined();
    } finally {
      delete process.env.SKILLOPT_TEST_SECRET;
      delete process.env.SKILLOPT_TEST_ALLOWED;
    }
  });

  it('runs in the given working directory', async () => {
    const directory = realpathSync(mkdtempSync(path.join(tmpdir(), 'skillopt-run-')));
    try {
      const result = await runProcess({ command: node, args: ['-e', 'console.log(process.cwd())'], cwd: directory });
      expect(result.stdout.trim()).toBe(directory);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });

  it('turns a missing command into a clear, non-retryable process-crashed error', async () => {
    const error = await runProcess({ command: 'skillopt-no-such-agent-cli', args: ['--version'], stdin: 'prompt' }).catch((caught: unknown) => caught);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: ERROR_CODES.processCrashed, retryable: false, provider: 'skillopt-no-such-agent-cli' });
    expect((error as Error).message).toContain('skillopt-no-such-agent-cli');
    expect((error as Error).message).toContain('not found');
  });

  it('says so when the working directory is what is missing', async () => {
    await expect(runProcess({ command: node, args: ['-e', ''], cwd: '/nonexistent/skillopt/workspace' })).rejects.toMatchObject({
      code: ERROR_CODES.processCrashed,
      message: expect.stringContaining('/nonexistent/skillopt/workspace does not exist'),
    });
  });

  it('stops the child and rejects with the reason when the signal aborts', async () => {
    const controller = new AbortController();
    let childPid = 0;
    const reason = new Error('run cancelled');
    const outcome = runProcess({
      command: node,
      args: ['-e', 'console.log(process.pid); setInterval(() => {}, 1000);'],
      signal: controller.signal,
      timeoutMs: 20_000,
      onStdoutLine: (line) => {
        childPid = Number(line);
        controller.abort(reason);
      },
    });
    await expect(outcome).rejects.toBe(reason);
    await expectGone(childPid);
  });

  it('kills at once on abort when told to, even a child that would take its grace period', async () => {
    const controller = new AbortController();
    const outcome = runProcess({
      command: node,
      args: ['-e', 'process.on("SIGTERM", () => {}); console.log("ready"); setInterval(() => {}, 1000);'],
      signal: controller.signal,
      terminationGraceMs: LONGER_THAN_ANY_TEST_MS,
      abortGraceMs: 0,
      onStdoutLine: () => controller.abort(new Error('stopped')),
    });
    await expect(outcome).rejects.toThrow('stopped');
  });

  it('stops the child and rejects with the error when a line callback throws', async () => {
    const failure = new Error('unexpected event');
    await expect(
      runProcess({
        command: node,
        args: ['-e', 'console.log("first"); setInterval(() => console.log("more"), 10);'],
        timeoutMs: 20_000,
        onStdoutLine: () => {
          throw failure;
        },
      }),
    ).rejects.toBe(failure);
  });

  it('refuses a negative output cap as a config error', () => {
    expect(() => runProcess({ command: node, maxOutputBytes: -1 })).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid }));
  });
});
