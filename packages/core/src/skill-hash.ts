import { createHash } from 'node:crypto';

/**
 * The identity of a skill text: the first 16 hex characters of the SHA-256 of its UTF-8 bytes
 * (the original's `skill_hash`, so hashes in both systems' run directories agree).
 */
export function skillHash(skill: string): string {
  return createHash('sha256').update(skill, 'utf8').digest('hex').slice(0, 16);
}
