import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
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

/**
 * Writes the files under `directory`, creating folders as needed. The caller checks the directory
 * first (describeTargetDirectoryProblem); with --force, existing files of the same name are replaced
 * and every other file is left alone. Returns the absolute paths written.
 */
export function writeScaffold(directory: string, files: readonly ScaffoldFile[]): string[] {
  const written: string[] = [];
  for (const file of files) {
    const target = path.join(directory, ...file.path.split('/'));
    mkdirSync(path.dirname(target), { recursive: true });
    writeFileSync(target, file.content);
    written.push(target);
  }
  return written;
}
