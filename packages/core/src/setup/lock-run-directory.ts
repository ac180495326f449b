import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { acquireDirectoryLock, type DirectoryLock } from '../lock/directory-lock.js';
import { requireDirectoryToResume } from '../run-store/load-run-state.js';

export interface LockRunDirectoryOptions {
  /** Resuming: the directory must exist (there is nothing to resume otherwise); a new run creates it. */
  resume: boolean;
  /** The command line a refused second process is told about; default this process's arguments. */
  command?: string | undefined;
}

/**
 * One run per directory: takes the run directory's lock (acquireDirectoryLock) before anything
 * reads its state or writes into it, for `train`, `train --resume` and anything else that writes a
 * run. A second process is refused with an error naming the holder; a lock left by a killed run
 * is taken over. Read-only inspection (the run reader) takes no lock.
 */
export async function lockRunDirectory(directory: string, options: LockRunDirectoryOptions): Promise<DirectoryLock> {
  const runDirectory = path.resolve(directory);
  if (options.resume) await requireDirectoryToResume(runDirectory);
  else await mkdir(runDirectory, { recursive: true });
  return acquireDirectoryLock(runDirectory, { purpose: options.resume ? 'resuming training' : 'training', command: options.command });
}
