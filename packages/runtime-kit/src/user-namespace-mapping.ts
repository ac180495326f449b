import { readFileSync } from 'node:fs';

/**
 * Whether `userId` exists in this process's user namespace (`/proc/self/uid_map`). Root inside a
 * namespace that maps only itself (`unshare -r`, some containers) cannot become another user:
 * there, a run keeps the caller's uid, as for a caller that is not root.
 */
export function isUserIdMapped(userId: number, uidMap = '/proc/self/uid_map'): boolean {
  let text: string;
  try {
    text = readFileSync(uidMap, 'utf8');
  } catch {
    return true;
  }
  return text
    .trim()
    .split('\n')
    .some((line) => {
      const [inside, , count] = line.trim().split(/\s+/).map(Number);
      return inside !== undefined && count !== undefined && userId >= inside && userId < inside + count;
    });
}
