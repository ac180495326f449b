/**
 * The integer a `max_chars` / `min_chars` check's argument stands for, or undefined when it stands
 * for none. Hand-written task files and model replies carry the bound as a number, an integral
 * float (`50.0`) or digits in a string (`" 50 "`, `"+50"`); a bool, a fractional or non-finite
 * number, or any other text (`"5_0"`, `"ten"`) is no bound at all rather than a guess.
 */
export function characterBound(argument: unknown): number | undefined {
  if (typeof argument === 'number') return Number.isInteger(argument) ? argument : undefined;
  if (typeof argument !== 'string') return undefined;
  const trimmed = argument.trim();
  if (!/^[+-]?\d+$/.test(trimmed)) return undefined;
  const value = Number(trimmed);
  return Number.isSafeInteger(value) ? value : undefined;
}
