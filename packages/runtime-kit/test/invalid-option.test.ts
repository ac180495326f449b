import { SkillOptError } from '@skillopt/contract';
import { invalidOption, requireNonNegativeNumber, requirePositiveInteger, requirePositiveNumber } from '../src/index';

function failureOf(check: () => void): SkillOptError {
  try {
    check();
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the check to fail');
}

describe('option checks', () => {
  it('are config-invalid user errors that name the option and the value', () => {
    const error = failureOf(() => requirePositiveInteger('maxConcurrency', 0));
    expect(error).toMatchObject({ code: 'config-invalid', category: 'user', retryable: false });
    expect(error.message).toBe('maxConcurrency must be a whole number of at least 1, got 0');
    expect(invalidOption('nonsense').message).toBe('nonsense');
  });

  it('take a minimum for whole numbers', () => {
    expect(() => requirePositiveInteger('learningRate', 0, 0)).not.toThrow();
    expect(failureOf(() => requirePositiveInteger('learningRate', 1.5, 0)).message).toBe('learningRate must be a whole number of at least 0, got 1.5');
  });

  it('tell "at least 0" from "greater than 0"', () => {
    expect(() => requireNonNegativeNumber('delayMs', 0)).not.toThrow();
    expect(failureOf(() => requireNonNegativeNumber('delayMs', -1)).message).toBe('delayMs must be a number of at least 0, got -1');
    expect(failureOf(() => requirePositiveNumber('timeoutMs', 0)).message).toBe('timeoutMs must be a number greater than 0, got 0');
    expect(failureOf(() => requirePositiveNumber('timeoutMs', Number.NaN)).message).toContain('got NaN');
  });
});
