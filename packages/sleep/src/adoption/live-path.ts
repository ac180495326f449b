import { lstat, readlink, realpath } from 'node:fs/promises';
import path from 'node:path';
import { isFileNotFound } from '@skillopt/core';

/**
 * The path a write to `livePath` must go to so that a symbolic link stays a link: a user's skill
 * document is often a link into a dotfiles repository, and replacing the link with a regular file
 * would silently fork it. A file that does not exist yet resolves through its nearest existing
 * ancestor; a dangling link resolves to where it points.
 */
export async function resolveWriteTarget(livePath: string): Promise<string> {
  try {
    return await realpath(livePath);
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
  }
  const stats = await lstat(livePath).catch((error: unknown) => {
    if (isFileNotFound(error)) return undefined;
    throw error;
  });
  if (stats?.isSymbolicLink()) return resolveWriteTarget(path.resolve(path.dirname(livePath), await readlink(livePath)));
  const parent = path.dirname(livePath);
  if (parent === livePath) return livePath;
  return path.join(await resolveWriteTarget(parent), path.basename(livePath));
}

/** The ancestors of `filePath` that do not exist, shallowest first: the directories writing it will create. */
export async function missingDirectories(filePath: string): Promise<string[]> {
  const missing: string[] = [];
  for (let directory = path.dirname(filePath); directory !== path.dirname(directory); directory = path.dirname(directory)) {
    try {
      await lstat(directory);
      break;
    } catch (error) {
      if (!isFileNotFound(error)) throw error;
      missing.unshift(directory);
    }
  }
  return missing;
}
