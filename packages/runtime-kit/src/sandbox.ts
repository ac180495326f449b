import type { ProcessResult } from './run-process.js';
import type { SandboxLimitName, SandboxLimits } from './sandbox-limits.js';

/** `none`: the run has a network namespace of its own with nothing in it. `shared`: the host's network, loopback included (for agent CLIs that reach a model server). */
export type SandboxNetwork = 'none' | 'shared';

export interface SandboxRunRequest {
  /** An absolute path, or a name found on the `PATH` of `environment`. */
  command: string;
  args?: readonly string[] | undefined;
  /**
   * A host directory, bound read-write at the same absolute path and made the working directory:
   * the only place the run can write that the host sees. When this process is root, the directory
   * and everything in it is given to the sandbox's user first, so that user can write there.
   */
  workDirectory: string;
  /** Host paths bound read-only at the same path: a scripts folder, an interpreter's prefix. */
  readOnlyPaths?: readonly string[] | undefined;
  /**
   * Host directories bound read-write at the same path besides the work directory: an agent CLI's
   * state folder, its private HOME. Given to the sandbox's user first when this process is root, as
   * the work directory is.
   */
  readWritePaths?: readonly string[] | undefined;
  /**
   * The child's whole environment: nothing of this process's is inherited. `PATH`
   * (`/usr/local/bin:/usr/bin:/bin`), `HOME` (the work directory), `TMPDIR` (`/tmp`) and `LANG`
   * (`C.UTF-8`) are set when absent.
   */
  environment?: Readonly<Record<string, string>> | undefined;
  /** Default `none`. */
  network?: SandboxNetwork | undefined;
  /** Written to the child's stdin, which is then closed. Absent: stdin is /dev/null. */
  stdin?: string | undefined;
  /** Stops the run as a timeout does, then rejects with the signal's reason. */
  signal?: AbortSignal | undefined;
  /** On top of the sandbox's own limits. */
  limits?: Partial<SandboxLimits> | undefined;
  /** Each stdout line as it arrives (an agent CLI's JSON events); if it throws, the run is stopped and rejects with that error. */
  onStdoutLine?: ((line: string) => void) | undefined;
  /** SIGTERM-to-SIGKILL time at the time limit, for a CLI that flushes its transcript on SIGTERM. Default 0: SIGKILL at once. */
  terminationGraceMs?: number | undefined;
  /** The SIGTERM-to-SIGKILL time when `signal` aborts. Default `terminationGraceMs`. */
  abortGraceMs?: number | undefined;
}

export interface SandboxRunResult extends ProcessResult {
  /** The limits the run is known to have reached (a timeout, cut output, a file too large); empty when none is known to. */
  limitsReached: SandboxLimitName[];
}

export interface Sandbox {
  readonly kind: 'bubblewrap' | 'unsandboxed';
  /** One line for logs and run summaries: what isolates a run, as whom, with which limits. */
  readonly description: string;
  /** A non-zero exit, a timeout or a limit reached is a result; it rejects when the command cannot be started or `signal` aborts. */
  run(request: SandboxRunRequest): Promise<SandboxRunResult>;
}

/** The request's environment with the defaults every run gets unless it says otherwise. */
export function sandboxEnvironment(request: Pick<SandboxRunRequest, 'environment' | 'workDirectory'>): Record<string, string> {
  return {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: request.workDirectory,
    TMPDIR: '/tmp',
    LANG: 'C.UTF-8',
    ...request.environment,
  };
}
