import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** Whether `file` is a regular file this process may execute. */
export function isExecutableFile(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first executable `name` in the directories of `searchPath` (a `PATH` value), or undefined. */
export function findExecutable(name: string, searchPath: string | undefined): string | undefined {
  for (const directory of (searchPath ?? '').split(path.delimiter)) {
    if (directory === '') continue;
    const candidate = path.join(directory, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  return undefined;
}
