import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import type { ProcessResult } from '@skillopt/runtime-kit';

export interface ProcessFailureContext {
  provider: string;
  /** Named in the message, e.g. `codex exec`. */
  command: string;
  /** Exit codes that still mean "finished"; default `[0]`. Some CLIs exit 1 when the task failed. */
  successExitCodes?: readonly number[];
}

const STDERR_EXCERPT_LENGTH = 500;

/**
 * The error an AgentRunner should throw for a run that did not finish, or undefined when it did.
 * The contract counts a harness that crashed or timed out as an infrastructure failure, not as an
 * answer, so both are retryable: `process-timeout` when the wall-clock limit stopped it,
 * `process-crashed` for a signal or an unexpected exit code. The message ends with the tail of
 * stderr, where a CLI explains itself.
 */
export function providerErrorFromProcessResult(result: ProcessResult, context: ProcessFailureContext): ProviderError | undefined {
  const successExitCodes = context.successExitCodes ?? [0];
  const stderrTail = result.stderr.trim().slice(-STDERR_EXCERPT_LENGTH);
  const suffix = stderrTail === '' ? '' : `; stderr ends: ${stderrTail}`;
  const details = { command: context.command, exitCode: result.exitCode, signal: result.signal, durationMs: result.durationMs };
  if (result.timedOut)
    return new ProviderError({
      code: ERROR_CODES.processTimeout,
      provider: context.provider,
      retryable: true,
      message: `${context.command} did not finish within its time limit (${result.durationMs} ms)${suffix}`,
      details,
    });
  if (result.exitCode !== null && successExitCodes.includes(result.exitCode)) return undefined;
  const how = result.signal !== null ? `was killed by ${result.signal}` : `exited with code ${result.exitCode}`;
  return new ProviderError({
    code: ERROR_CODES.processCrashed,
    provider: context.provider,
    retryable: true,
    message: `${context.command} ${how}${suffix}`,
    details,
  });
}
