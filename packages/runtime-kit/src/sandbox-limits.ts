import { requirePositiveInteger, requirePositiveNumber } from './invalid-option.js';

/** What one run in a sandbox may use. Each limit applies to every process of the run on its own, except `processes`. */
export interface SandboxLimits {
  /** Wall-clock time of the whole run; at the limit every process of the run is killed. */
  timeoutMs: number;
  /** Address space of each process (RLIMIT_AS). */
  memoryBytes: number;
  /** The largest file a process may write (RLIMIT_FSIZE); the sandbox's private /tmp holds at most four such files' worth. */
  fileSizeBytes: number;
  /** Processes and threads the run may have at once (RLIMIT_NPROC, counted in the run's own user namespace). */
  processes: number;
  /** Bytes kept of stdout and of stderr, each; past it the tail is kept and the result says so. */
  outputBytes: number;
}

/** The name of a limit that ended a run, as far as it can be told from outside. */
export type SandboxLimitName = 'timeout' | 'output' | 'file-size';

const MEBIBYTE = 1024 * 1024;

/**
 * Sized for one Python script on one workbook: `import pandas, openpyxl` peaks at about 330 MiB of
 * address space under Debian's python3 (measured), so 2 GiB leaves room for the data.
 */
export const DEFAULT_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeoutMs: 60_000,
  memoryBytes: 2048 * MEBIBYTE,
  fileSizeBytes: 64 * MEBIBYTE,
  processes: 64,
  outputBytes: MEBIBYTE,
});

/**
 * Sized for an agent CLI (a Node or Bun program, or Codex's Rust binary with its Node launcher)
 * rather than one script: their runtimes reserve address space far beyond what they use (JSC's
 * gigacage, V8's heap cage, a stack per thread), so the address-space limit only stops a runaway,
 * and RLIMIT_NPROC counts threads, of which a CLI starts dozens and every shell command it runs
 * more. The wall clock is the run's own time limit, so the default here is only a fallback.
 */
export const AGENT_CLI_SANDBOX_LIMITS: Readonly<SandboxLimits> = Object.freeze({
  timeoutMs: 30 * 60_000,
  memoryBytes: 256 * 1024 * MEBIBYTE,
  fileSizeBytes: 1024 * MEBIBYTE,
  processes: 1024,
  outputBytes: 10 * MEBIBYTE,
});

/** Open files per process: enough for any script, few enough that descriptors are no way to exhaust the host. */
const OPEN_FILES = 1024;

export function resolveSandboxLimits(...layers: readonly (Partial<SandboxLimits> | undefined)[]): SandboxLimits {
  const limits: SandboxLimits = { ...DEFAULT_SANDBOX_LIMITS };
  for (const layer of layers) {
    for (const [name, value] of Object.entries(layer ?? {}) as [keyof SandboxLimits, number | undefined][]) if (value !== undefined) limits[name] = value;
  }
  requirePositiveNumber('limits.timeoutMs', limits.timeoutMs);
  requirePositiveInteger('limits.memoryBytes', limits.memoryBytes);
  requirePositiveInteger('limits.fileSizeBytes', limits.fileSizeBytes);
  requirePositiveInteger('limits.processes', limits.processes);
  requirePositiveInteger('limits.outputBytes', limits.outputBytes);
  return limits;
}

/** The arguments of util-linux `prlimit` that set `limits` (soft and hard alike) for the command that follows them. */
export function resourceLimitArguments(limits: SandboxLimits): string[] {
  return [`--nproc=${limits.processes}`, `--as=${limits.memoryBytes}`, `--fsize=${limits.fileSizeBytes}`, `--nofile=${OPEN_FILES}`, '--core=0', '--'];
}

/** SIGXFSZ: what the kernel sends a process that writes past RLIMIT_FSIZE (Python ignores it and raises `OSError: File too large` instead). */
const FILE_SIZE_SIGNAL = 'SIGXFSZ';
// bubblewrap, like a shell, exits with 128 + the signal's number when its command was killed by one.
const FILE_SIZE_SIGNAL_EXIT_CODE = 128 + 25;

/** The limits a finished run is known to have reached. Memory and process limits show as the program's own failure (MemoryError, EAGAIN), so they are not told apart here. */
export function limitsReached(result: {
  timedOut: boolean;
  stdoutTruncated: boolean;
  stderrTruncated: boolean;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
}): SandboxLimitName[] {
  const reached: SandboxLimitName[] = [];
  if (result.timedOut) reached.push('timeout');
  if (result.stdoutTruncated || result.stderrTruncated) reached.push('output');
  if (result.signal === FILE_SIZE_SIGNAL || result.exitCode === FILE_SIZE_SIGNAL_EXIT_CODE) reached.push('file-size');
  return reached;
}

/** The limits in words, for a sandbox's description. */
export function describeLimits(limits: SandboxLimits): string {
  const mebibytes = (bytes: number): string => `${Math.round(bytes / (1024 * 1024))} MiB`;
  return (
    `${limits.timeoutMs / 1000} s wall clock, ${mebibytes(limits.memoryBytes)} address space per process, ${mebibytes(limits.fileSizeBytes)} per file, ` +
    `${limits.processes} processes, ${mebibytes(limits.outputBytes)} of output per stream`
  );
}
