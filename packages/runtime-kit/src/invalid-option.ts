import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * The error for a nonsensical option (a negative limit, zero attempts). These numbers usually come
 * from the user's config section of a package, so the error is a `config-invalid` user error,
 * never retried.
 */
export function invalidOption(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

export function requirePositiveInteger(name: string, value: number, minimum = 1): void {
  if (!Number.isInteger(value) || value < minimum) throw invalidOption(`${name} must be a whole number of at least ${minimum}, got ${value}`);
}

export function requireNonNegativeNumber(name: string, value: number): void {
  if (!Number.isFinite(value) || value < 0) throw invalidOption(`${name} must be a number of at least 0, got ${value}`);
}

export function requirePositiveNumber(name: string, value: number): void {
  if (!Number.isFinite(value) || value <= 0) throw invalidOption(`${name} must be a number greater than 0, got ${value}`);
}
