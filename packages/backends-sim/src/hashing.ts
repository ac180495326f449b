import { createHash } from 'node:crypto';

/**
 * Seeded, order-free randomness. Every draw the simulator makes is a pure function of the values
 * that identify it (the seed, the item, the skill, the prompt), never of a counter or the clock,
 * so concurrent calls made in any order give the same replies.
 */
export function hashHex(...parts: readonly (string | number)[]): string {
  const hash = createHash('sha256');
  for (const part of parts) {
    hash.update(String(part));
    hash.update('\u0000');
  }
  return hash.digest('hex');
}

/** A number in [0, 1) drawn from the parts. */
export function unitHash(...parts: readonly (string | number)[]): number {
  return Number.parseInt(hashHex(...parts).slice(0, 13), 16) / 2 ** 52;
}

/** One element of a non-empty list, drawn from the parts. */
export function pick<T>(list: readonly T[], ...parts: readonly (string | number)[]): T {
  if (list.length === 0) throw new Error('pick from an empty list');
  return list[Math.floor(unitHash(...parts) * list.length)] as T;
}
