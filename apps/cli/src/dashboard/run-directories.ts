import { stat } from 'node:fs/promises';
import { findRunDirectories, runNameIn } from '@skillopt/core';

/**
 * The run directories of the folder by the name the listing gives each (core's runNameIn); none
 * while the folder does not exist yet (`skillopt train` creates outputs/ with its first run).
 */
export async function runDirectoriesByName(folder: string): Promise<Map<string, string>> {
  const isFolder = await stat(folder).then(
    (found) => found.isDirectory(),
    () => false,
  );
  const byName = new Map<string, string>();
  if (!isFolder) return byName;
  for (const directory of await findRunDirectories(folder)) byName.set(runNameIn(folder, directory), directory);
  return byName;
}
