import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Writable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { abortReason, sleep } from './abortable-wait.js';
import { requireNonNegativeNumber, requirePositiveNumber } from './invalid-option.js';
import { buildChildEnvironment } from './child-environment.js';
import { createLineSplitter } from './line-splitter.js';
import { OutputTail } from './output-tail.js';

export interface RunProcessOptions {
  command: string;
  args?: readonly string[];
  /**
   * The child's stdin. A string is written and stdin closed. An async iterable is written chunk by
   * chunk as it yields (waiting for the pipe to drain), and stdin is closed when it ends: the way
   * to talk to a long-lived child over a line protocol. Absent: stdin is /dev/null.
   */
  stdin?: string | AsyncIterable<string>;
  cwd?: string;
  /**
   * The variables of this process's environment the child inherits; nothing else is passed, so
   * API keys of other providers never reach an agent. Default `['PATH', 'HOME']`. Replaces the
   * default rather than adding to it, so list PATH and HOME again when you pass your own.
   */
  allowedEnvironmentVariables?: readonly string[];
  /** Variables set for the child in addition (an API key for this harness, say); they win. */
  extraEnvironmentVariables?: Readonly<Record<string, string>>;
  /**
   * A hard wall-clock limit. When it passes, the child's whole process group is killed (see
   * `terminationGraceMs`) and the result says `timedOut: true`. Absent: no limit.
   */
  timeoutMs?: number;
  /**
   * Time between SIGTERM and SIGKILL when stopping the child, for harnesses that flush a
   * transcript on SIGTERM. Default 0: SIGKILL at once.
   */
  terminationGraceMs?: number;
  /** Stops the child as a timeout does (see `abortGraceMs`), then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /**
   * The SIGTERM-to-SIGKILL time when `signal` aborts. An abort abandons the run, so there is
   * usually nothing to wait for: 0 kills at once and the call rejects promptly. Default:
   * `terminationGraceMs`.
   */
  abortGraceMs?: number;
  /**
   * The most bytes kept of stdout and of stderr, each. Past it the start is dropped and the tail
   * kept (where the final answer and the fatal error are), and `stdoutTruncated` /
   * `stderrTruncated` say so. `onStdoutLine` still sees every line. Default 10 MiB.
   */
  maxOutputBytes?: number;
  /** Each stdout line as it arrives, without its newline. If it throws, the child is stopped and the run rejects with that error. */
  onStdoutLine?: (line: string) => void;
  /** Each stderr line as it arrives, likewise. */
  onStderrLine?: (line: string) => void;
  /** Named in errors. Default: the command's base name. */
  provider?: string;
}

export interface ProcessResult {
  /** Null when the process was ended by a signal. */
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  timedOut: boolean;
  stdout: string;
  stderr: string;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  durationMs: number;
}

const DEFAULT_ALLOWED_ENVIRONMENT_VARIABLES = ['PATH', 'HOME'];
const DEFAULT_MAX_OUTPUT_BYTES = 10 * 1024 * 1024;
// After the child exits, how long its pipes may stay open before we stop reading. Only matters when
// something outside its process group (a daemon that called setsid) inherited them.
const PIPE_DRAIN_AFTER_EXIT_MS = 2_000;

/**
 * Runs a command (usually an agent CLI) to completion and returns its exit status and output. A
 * non-zero exit or a timeout is a result, not an error: the caller knows what they mean for its
 * harness. It rejects only when the command cannot be started (a non-retryable ProviderError
 * `process-crashed` naming the command), when `signal` aborts, or when a line callback throws.
 *
 * The child runs in a process group of its own (POSIX), and the group is what gets killed: on
 * timeout, on abort, and once the child has exited, so nothing it spawned (a shell's background
 * job, a dev server, a sub-agent) outlives the run. A descendant that left the group with setsid
 * escapes this; operating-system sandboxes are the tool for hostile code. On Windows there are no
 * process groups and only the child itself is killed.
 */
export function runProcess(options: RunProcessOptions): Promise<ProcessResult> {
  const { command, signal } = options;
  if (options.timeoutMs !== undefined) requirePositiveNumber('timeoutMs', options.timeoutMs);
  const terminationGraceMs = options.terminationGraceMs ?? 0;
  requireNonNegativeNumber('terminationGraceMs', terminationGraceMs);
  const abortGraceMs = options.abortGraceMs ?? terminationGraceMs;
  requireNonNegativeNumber('abortGraceMs', abortGraceMs);
  const maxOutputBytes = options.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES;
  requireNonNegativeNumber('maxOutputBytes', maxOutputBytes);
  const provider = options.provider ?? path.basename(command);
  if (signal?.aborted) return Promise.reject(abortReason(signal));

  const environment = buildChildEnvironment(
    options.allowedEnvironmentVariables ?? DEFAULT_ALLOWED_ENVIRONMENT_VARIABLES,
    options.extraEnvironmentVariables ?? {},
  );
  const usesProcessGroup = process.platform !== 'win32';

  const startOnce = (): Promise<ProcessResult> =>
    new Promise<ProcessResult>((resolve, reject) => {
      const startedAt = performance.now();
      let child: ChildProcess;
      try {
        child = spawn(command, [...(options.args ?? [])], {
          cwd: options.cwd,
          env: environment,
          stdio: [options.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
          // detached makes the child the leader of a new process group, so -pid reaches all of it.
          detached: usesProcessGroup,
          windowsHide: true,
        });
      } catch (error) {
        reject(startFailure(command, options.cwd, provider, error));
        return;
      }
      const stdout = child.stdout as NonNullable<ChildProcess['stdout']>;
      const stderr = child.stderr as NonNullable<ChildProcess['stderr']>;

      const stdoutTail = new OutputTail(maxOutputBytes);
      const stderrTail = new OutputTail(maxOutputBytes);
      let spawned = false;
      let exited = false;
      let settled = false;
      let stopping = false;
      let timedOut = false;
      let abortedWith: { reason: unknown } | undefined;
      let callbackFailure: { error: unknown } | undefined;
      let exitStatus: { code: number | null; signal: NodeJS.Signals | null } = { code: null, signal: null };
      const timers: NodeJS.Timeout[] = [];

      const signalProcessGroup = (signalName: NodeJS.Signals): void => {
        const pid = child.pid;
        if (pid === undefined) return;
        if (!usesProcessGroup) {
          if (!exited) child.kill(signalName);
          return;
        }
        try {
          process.kill(-pid, signalName);
        } catch {
          // ESRCH: the group is already empty. EPERM cannot happen for our own children.
        }
      };

      const stop = (graceMs: number): void => {
        if (stopping) return;
        stopping = true;
        if (graceMs > 0) {
          signalProcessGroup('SIGTERM');
          timers.push(setTimeout(() => signalProcessGroup('SIGKILL'), graceMs));
        } else {
          signalProcessGroup('SIGKILL');
        }
      };

      const lineReader = (onLine: ((line: string) => void) | undefined) => {
        if (onLine === undefined) return undefined;
        const decoder = new StringDecoder('utf8');
        const splitter = createLineSplitter();
        const deliver = (lines: string[]): void => {
          for (const line of lines) {
            if (callbackFailure !== undefined) return;
            try {
              onLine(line);
            } catch (error) {
              callbackFailure = { error };
              stop(terminationGraceMs);
            }
          }
        };
        return {
          push: (chunk: Buffer) => deliver(splitter.push(decoder.write(chunk))),
          end: () => deliver([...splitter.push(decoder.end()), ...splitter.end()]),
        };
      };
      const stdoutLines = lineReader(options.onStdoutLine);
      const stderrLines = lineReader(options.onStderrLine);

      stdout.on('data', (chunk: Buffer) => {
        stdoutTail.push(chunk);
        stdoutLines?.push(chunk);
      });
      stderr.on('data', (chunk: Buffer) => {
        stderrTail.push(chunk);
        stderrLines?.push(chunk);
      });

      const onAbort = (): void => {
        abortedWith = { reason: abortReason(signal as AbortSignal) };
        stop(abortGraceMs);
      };

      const finish = (): void => {
        if (settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        stdoutLines?.end();
        stderrLines?.end();
        if (callbackFailure !== undefined) reject(callbackFailure.error);
        else if (abortedWith !== undefined) reject(abortedWith.reason);
        else
          resolve({
            exitCode: exitStatus.code,
            signal: exitStatus.signal,
            timedOut,
            stdout: stdoutTail.text(),
            stderr: stderrTail.text(),
            stdoutTruncated: stdoutTail.truncated,
            stderrTruncated: stderrTail.truncated,
            durationMs: Math.round(performance.now() - startedAt),
          });
      };

      child.once('spawn', () => {
        spawned = true;
      });
      child.on('error', (error) => {
        // After a successful start, 'error' only reports a failed kill, which the exit handling covers.
        if (spawned || settled) return;
        settled = true;
        for (const timer of timers) clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
        reject(startFailure(command, options.cwd, provider, error));
      });
      child.once('exit', (code, exitSignal) => {
        exited = true;
        if (settled) return;
        exitStatus = { code, signal: exitSignal };
        // Whatever the child left running in its group dies with it.
        signalProcessGroup('SIGKILL');
        timers.push(
          setTimeout(() => {
            stdout.destroy();
            stderr.destroy();
            finish();
          }, PIPE_DRAIN_AFTER_EXIT_MS),
        );
      });
      child.once('close', () => finish());

      if (options.stdin !== undefined && child.stdin) {
        // A child that exits without reading its input makes the write fail with EPIPE; that is its
        // business and shows in its exit status.
        child.stdin.on('error', () => undefined);
        if (typeof options.stdin === 'string') child.stdin.end(options.stdin);
        else void writeAsItComes(child.stdin, options.stdin, () => exited);
      }
      if (options.timeoutMs !== undefined)
        timers.push(
          setTimeout(() => {
            if (exited) return;
            timedOut = true;
            stop(terminationGraceMs);
          }, options.timeoutMs),
        );
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  return startRetryingWhileTextBusy(startOnce, signal);
}

/** Writes each chunk of `chunks` to `stream`, waiting for it to drain, and ends it; stops once the child has exited. */
async function writeAsItComes(stream: Writable, chunks: AsyncIterable<string>, hasExited: () => boolean): Promise<void> {
  try {
    for await (const chunk of chunks) {
      if (hasExited() || stream.destroyed) return;
      if (!stream.write(chunk)) await once(stream, 'drain');
    }
  } catch {
    // An input source that fails ends the input; the child sees end of file, as after a normal end.
  }
  if (!stream.destroyed) stream.end();
}

/**
 * The waits before another try at starting a command that failed with ETXTBSY. That error means
 * the executable is open for writing somewhere: typically a script this process has just written,
 * whose descriptor a child forked by another spawn still holds for the instant before it execs.
 * It passes within milliseconds, and the command never started, so trying again is safe.
 */
const TEXT_BUSY_RETRY_DELAYS_MS = [10, 25, 50, 100, 200] as const;

async function startRetryingWhileTextBusy(startOnce: () => Promise<ProcessResult>, signal: AbortSignal | undefined): Promise<ProcessResult> {
  for (let attempt = 0; ; attempt += 1) {
    try {
      return await startOnce();
    } catch (error) {
      const delay = TEXT_BUSY_RETRY_DELAYS_MS[attempt];
      const textBusy = error instanceof ProviderError && error.details?.errno === 'ETXTBSY';
      if (delay === undefined || !textBusy || signal?.aborted) throw error;
      await sleep(delay, signal);
    }
  }
}

const COMMAND_NOT_FOUND = 'the command was not found (is it installed, and on the PATH the process is given?)';

/** A command that is not there: trying again cannot help. Also for a caller that looks the command up before starting it. */
export function commandNotFoundError(command: string, provider: string, cause?: unknown): ProviderError {
  return new ProviderError({
    code: ERROR_CODES.processCrashed,
    provider,
    retryable: false,
    message: `could not start "${command}": ${COMMAND_NOT_FOUND}`,
    ...(cause === undefined ? {} : { cause }),
    details: { command, ...(cause === undefined ? {} : { errno: 'ENOENT' }) },
  });
}

function startFailure(command: string, cwd: string | undefined, provider: string, error: unknown): ProviderError {
  const errno = (error as { code?: unknown }).code;
  let reason: string;
  if (errno === 'ENOENT') {
    if (cwd === undefined || existsSync(cwd)) return commandNotFoundError(command, provider, error);
    reason = `its working directory ${cwd} does not exist`;
  } else if (errno === 'EACCES') reason = 'the command is not executable (EACCES)';
  else reason = error instanceof Error ? error.message : String(error);
  return new ProviderError({
    code: ERROR_CODES.processCrashed,
    provider,
    // Only a shortage of processes or file descriptors may be gone on the next try.
    retryable: errno === 'EAGAIN' || errno === 'EMFILE' || errno === 'ENFILE' || errno === 'ENOMEM',
    message: `could not start "${command}": ${reason}`,
    cause: error,
    details: { command, ...(typeof errno === 'string' ? { errno } : {}) },
  });
}
