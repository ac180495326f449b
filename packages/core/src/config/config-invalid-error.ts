import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * Every configuration problem is the user's to fix and retrying cannot help, so all of them are
 * `config-invalid` user errors; `details` carries the facts (file, line, the list of problems)
 * for `--json` output.
 */
export function configInvalid(message: string, details?: Record<string, unknown>, cause?: unknown): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    retryable: false,
    message,
    ...(details === undefined ? {} : { details }),
    ...(cause === undefined ? {} : { cause }),
  });
}
