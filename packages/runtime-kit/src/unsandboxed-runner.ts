import path from 'node:path';
import { isExecutableFile } from './find-executable.js';
import { runProcess } from './run-process.js';
import { type Sandbox, type SandboxRunRequest, type SandboxRunResult, sandboxEnvironment } from './sandbox.js';
import { describeLimits, limitsReached, resolveSandboxLimits, resourceLimitArguments, type SandboxLimits } from './sandbox-limits.js';
import { SANDBOX_TOOLS } from './bubblewrap-arguments.js';

/**
 * The explicit opt-out: runs each command as this process's own user, with its access to every
 * file and to the network, in the work directory and with the request's environment alone. The
 * wall-clock, output and (through `prlimit`, where it is installed) the memory, file-size and
 * process limits still apply, though Linux does not enforce the process limit for root. For code
 * you trust, or a machine where bubblewrap cannot run and you have decided to accept the risk.
 */
export function createUnsandboxedRunner(options: { limits?: Partial<SandboxLimits> | undefined } = {}): Sandbox {
  const defaultLimits = resolveSandboxLimits(options.limits);
  const withResourceLimits = isExecutableFile(SANDBOX_TOOLS.prlimit);
  const run = async (request: SandboxRunRequest): Promise<SandboxRunResult> => {
    const limits = resolveSandboxLimits(defaultLimits, request.limits);
    const workDirectory = path.resolve(request.workDirectory);
    const command = withResourceLimits ? SANDBOX_TOOLS.prlimit : request.command;
    const args = withResourceLimits ? [...resourceLimitArguments(limits), request.command, ...(request.args ?? [])] : [...(request.args ?? [])];
    const result = await runProcess({
      command,
      args,
      cwd: workDirectory,
      allowedEnvironmentVariables: [],
      extraEnvironmentVariables: sandboxEnvironment({ environment: request.environment, workDirectory }),
      timeoutMs: limits.timeoutMs,
      maxOutputBytes: limits.outputBytes,
      signal: request.signal,
      provider: 'unsandboxed',
      ...(request.stdin === undefined ? {} : { stdin: request.stdin }),
      ...(request.onStdoutLine === undefined ? {} : { onStdoutLine: request.onStdoutLine }),
      ...(request.terminationGraceMs === undefined ? {} : { terminationGraceMs: request.terminationGraceMs }),
      ...(request.abortGraceMs === undefined ? {} : { abortGraceMs: request.abortGraceMs }),
    });
    return { ...result, limitsReached: limitsReached(result) };
  };
  const limitsText = withResourceLimits ? describeLimits(defaultLimits) : `${defaultLimits.timeoutMs / 1000} s wall clock and output only (prlimit not found)`;
  return {
    kind: 'unsandboxed',
    description:
      `NOT SANDBOXED: generated code runs as uid ${process.getuid?.() ?? 'of this process'} with this process's access to every file and to the network ` +
      `(read-only and read-write paths and the network setting are ignored); limits ${limitsText}`,
    run,
  };
}
