import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/** A caller passed a setting no run could use (a configuration mistake): a user error, not retryable. */
export function invalidOption(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

export function requirePositiveInteger(name: string, value: number, minimum = 1): void {
  if (!Number.isInteger(value) || value < minimum) {
    throw invalidOption(`${name} must be a whole number of at least ${minimum}, got ${value}`);
  }
}
