import os from 'node:os';
import { readDirectoryLock } from '../lock/directory-lock.js';
import { isProcessRunning } from '../lock/process-liveness.js';

/**
 * Whether the session a run's events say is running still is. A run killed outright (SIGKILL, a
 * crash, a machine that lost power) writes no `run-stopped`, so its last lifecycle event stays
 * `run-started`; its lock file says which process held it. The session is over when no lock is
 * left, or when the lock names a process of this host that no longer runs. A lock held on another
 * host cannot be checked from here, so that session counts as running, and says where.
 */
export type SessionLiveness =
  | { alive: true; pid: number | undefined; hostname: string | undefined }
  | { alive: false; why: 'no lock' | 'process ended'; pid: number | undefined };

export async function readSessionLiveness(directory: string): Promise<SessionLiveness> {
  const holder = await readDirectoryLock(directory).catch(() => 'unreadable' as const);
  // Being written at this very moment (created, not yet filled): its holder is alive.
  if (holder === 'unreadable') return { alive: true, pid: undefined, hostname: undefined };
  if (holder === undefined) return { alive: false, why: 'no lock', pid: undefined };
  if (holder.hostname !== os.hostname()) return { alive: true, pid: holder.pid, hostname: holder.hostname };
  if (isProcessRunning(holder.pid)) return { alive: true, pid: holder.pid, hostname: holder.hostname };
  return { alive: false, why: 'process ended', pid: holder.pid };
}
