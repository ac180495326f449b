import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** A problem with the `backends.openai` settings or the environment they read: the user's to fix, never retried. */
export function configError(message: string, details?: Record<string, unknown>): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    retryable: false,
    message: `backends.openai: ${message}`,
    ...(details ? { details } : {}),
  });
}
