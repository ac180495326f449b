import { lchown, lstat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { invalidOption } from './invalid-option.js';

/**
 * Gives a directory and everything under it to a user and group; symbolic links are changed
 * themselves, never followed. A file with a second hard link is refused: the run could write
 * through it to wherever the other name lives (a dataset's own copy of the input).
 */
export async function changeTreeOwner(directory: string, userId: number, groupId: number): Promise<void> {
  await lchown(directory, userId, groupId);
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) {
      await changeTreeOwner(entryPath, userId, groupId);
      continue;
    }
    if (entry.isFile() && (await lstat(entryPath)).nlink > 1)
      throw invalidOption(`workDirectory: ${entryPath} is a hard link to a file elsewhere; put a copy in the work directory instead`);
    await lchown(entryPath, userId, groupId);
  }
}
