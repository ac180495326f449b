import { stat } from 'node:fs/promises';
import path from 'node:path';
import { DIRECTORY_LOCK_FILE, RUN_FILES, readSessionLiveness } from '@skillopt/core';

/** The files whose change changes what a run's list entry says (a step, a stop, the end, a session starting or ending). */
const WATCHED_FILES = [RUN_FILES.events, RUN_FILES.runtimeState, RUN_FILES.summary, DIRECTORY_LOCK_FILE];

/**
 * What a run's list entry depends on, cheaply: the size and modification time of its watched
 * files and, while a lock file is there, whether the process holding it still runs — a session
 * killed outright changes no file, only that. Equal signatures mean the entry read last still holds.
 */
export async function readRunSignature(directory: string): Promise<string> {
  const files = await Promise.all(
    WATCHED_FILES.map((name) =>
      stat(path.join(directory, name)).then(
        (found) => `${found.size}:${found.mtimeMs}`,
        () => '-',
      ),
    ),
  );
  const lockPresent = files.at(-1) !== '-';
  const session = lockPresent ? ((await readSessionLiveness(directory)).alive ? 'alive' : 'ended') : '-';
  return [...files, session].join('|');
}
