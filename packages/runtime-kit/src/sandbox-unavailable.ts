import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * The error for a sandbox that cannot be set up on this machine. It is a user error, never
 * retried: the machine has to change, and until it does a caller must refuse to run generated code
 * rather than run it unsandboxed. `remedy` says how to fix it; the message carries it too.
 */
export function sandboxUnavailable(options: { reason: string; remedy: string; cause?: unknown }): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.sandboxUnavailable,
    category: 'user',
    message: `The bubblewrap sandbox cannot run here: ${options.reason}. ${options.remedy}`,
    details: { reason: options.reason, remedy: options.remedy },
    ...(options.cause === undefined ? {} : { cause: options.cause }),
  });
}
