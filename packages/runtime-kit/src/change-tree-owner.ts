import { lchown, readdir } from 'node:fs/promises';
import path from 'node:path';

/** Gives a directory and everything under it to a user and group; symbolic links are changed themselves, never followed. */
export async function changeTreeOwner(directory: string, userId: number, groupId: number): Promise<void> {
  await lchown(directory, userId, groupId);
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const entryPath = path.join(directory, entry.name);
    if (entry.isDirectory()) await changeTreeOwner(entryPath, userId, groupId);
    else await lchown(entryPath, userId, groupId);
  }
}
