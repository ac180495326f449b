import { spawn } from 'node:child_process';
import { SkillOptError } from '@skillopt/contract';

/** There is no `crontab` program on PATH: nothing can be scheduled with cron (exit 1). */
export const CRONTAB_UNAVAILABLE_ERROR_CODE = 'crontab-unavailable';
/** `crontab` ran and failed (not allowed to use cron, a line it refused…) (exit 1). */
export const CRONTAB_FAILED_ERROR_CODE = 'crontab-failed';

const CRONTAB_TIMEOUT_MS = 30_000;

interface CrontabRun {
  exitCode: number | null;
  stdout: string;
  stderr: string;
}

/** The user's crontab, read and replaced through the `crontab` program found on PATH. */
export interface Crontab {
  /** The whole crontab as `crontab -l` prints it; empty when the user has none. */
  read(): Promise<string>;
  /** Replaces the whole crontab with `text` (`crontab -`). */
  write(text: string): Promise<void>;
}

function unavailable(): SkillOptError {
  return new SkillOptError({
    code: CRONTAB_UNAVAILABLE_ERROR_CODE,
    category: 'internal',
    message: 'There is no `crontab` program on PATH, so cron cannot be used here.',
  });
}

function failed(action: string, run: CrontabRun): SkillOptError {
  const said = run.stderr.trim() || run.stdout.trim() || 'no message';
  return new SkillOptError({
    code: CRONTAB_FAILED_ERROR_CODE,
    category: 'internal',
    message: `\`crontab ${action}\` failed (exit ${run.exitCode ?? 'by a signal'}): ${said}. Nothing was changed.`,
  });
}

function runCrontab(args: readonly string[], environment: NodeJS.ProcessEnv, input?: string): Promise<CrontabRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('crontab', [...args], { env: environment, stdio: ['pipe', 'pipe', 'pipe'] });
    // Our own timer rather than spawn's `timeout`, which keeps the process alive for its whole length when the program is missing.
    const timer = setTimeout(() => child.kill('SIGKILL'), CRONTAB_TIMEOUT_MS);
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', (error: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(error.code === 'ENOENT' ? unavailable() : error);
    });
    child.on('close', (exitCode) => {
      clearTimeout(timer);
      resolve({ exitCode, stdout, stderr });
    });
    // A crontab that exits before reading its stdin must not fail the write with EPIPE: its exit code says what happened.
    child.stdin.on('error', () => undefined);
    child.stdin.end(input ?? '');
  });
}

// `crontab -l` of a user without one: Vixie cron and cronie say "no crontab for <user>", BusyBox "can't open".
const NO_CRONTAB = /no crontab for|can't open/i;

/** The user's crontab through the `crontab` on the PATH of `environment`. */
export function userCrontab(environment: NodeJS.ProcessEnv = process.env): Crontab {
  return {
    async read() {
      const run = await runCrontab(['-l'], environment);
      if (run.exitCode === 0) return run.stdout;
      if (NO_CRONTAB.test(run.stderr)) return '';
      throw failed('-l', run);
    },
    async write(text) {
      const run = await runCrontab(['-'], environment, text);
      if (run.exitCode !== 0) throw failed('-', run);
    },
  };
}
