import { createHash } from 'node:crypto';

/**
 * A short hash of a pseudo-session's content, for its id: the same memory or skill keeps its id
 * night after night, and a changed one gets a new id, so it is a new session to every later stage.
 */
export function contentHash(...parts: readonly string[]): string {
  const hash = createHash('sha256');
  // A separator no text holds, so ("ab", "c") and ("a", "bc") differ.
  for (const part of parts) hash.update(part).update('\0');
  return hash.digest('hex').slice(0, 16);
}
