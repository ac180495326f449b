import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '@skillopt/core';
import type { ScaffoldFile } from './context.js';

/** Why the scaffold cannot be written to `directory` (without --force), or undefined. */
export function describeTargetDirectoryProblem(directory: string, options: { force: boolean }): string | undefined {
  if (!existsSync(directory)) return undefined;
  if (!statSync(directory).isDirectory()) return `${directory} exists and is not a directory`;
  if (options.force) return undefined;
  const entries = readdirSync(directory);
  if (entries.length === 0) return undefined;
  const shown = entries.slice(0, 3).join(', ') + (entries.length > 3 ? ', …' : '');
  return `${directory} is not empty (${shown}); choose another --directory, or pass --force to write into it (files of the same name are overwritten)`;
}

/** The paths of `files` (as listed) that already exist under `directory`: what writing them would replace. */
export function existingScaffoldFiles(directory: string, files: readonly ScaffoldFile[]): string[] {
  return files.filter((file) => existsSync(targetOf(directory, file))).map((file) => file.path);
}

/**
 * Writes the files under `directory`, creating folders as needed, each one atomically (core's
 * writeFileAtomic: an interrupted write leaves the old file or none, never half a file). The caller
 * checks first (describeTargetDirectoryProblem, existingScaffoldFiles); with --force, existing
 * files of the same name are replaced and every other file is left alone. Returns the absolute
 * paths written.
 */
export async function writeScaffold(directory: string, files: readonly ScaffoldFile[]): Promise<string[]> {
  const written: string[] = [];
  for (const file of files) {
    const target = targetOf(directory, file);
    await writeFileAtomic(target, file.content);
    written.push(target);
  }
  return written;
}

function targetOf(directory: string, file: ScaffoldFile): string {
  return path.join(directory, ...file.path.split('/'));
}
