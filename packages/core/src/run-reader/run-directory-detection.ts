import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { RUN_FILES } from '../run-store/run-directory-layout.js';

/**
 * Whether a directory holds a run: runtime_state.json (something was committed) or config.json (a
 * run started there and wrote its configuration first). The one definition, for every reader.
 */
export function isRunDirectory(directory: string): boolean {
  return existsSync(path.join(directory, RUN_FILES.runtimeState)) || existsSync(path.join(directory, RUN_FILES.config));
}

/** The absolute run directory, or a user error that says why it is not one. */
export function requireRunDirectory(directory: string, workingDirectory: string): string {
  const absolute = path.resolve(workingDirectory, directory);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw notARun(`${directory} does not exist`);
  }
  if (!isDirectory) throw notARun(`${directory} is not a directory`);
  if (!isRunDirectory(absolute))
    throw notARun(
      `${directory} is not a run directory: it holds neither ${RUN_FILES.runtimeState} nor ${RUN_FILES.config}. Run directories are what \`skillopt train\` writes; \`skillopt runs list\` lists those under outputs/`,
    );
  return absolute;
}

/** The run directories directly under a folder (and the folder itself, when it is one), by name. */
export async function findRunDirectories(folder: string): Promise<string[]> {
  const found: string[] = [];
  if (isRunDirectory(folder)) found.push(folder);
  const entries = await readdir(folder, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const candidate = path.join(folder, entry.name);
    if (isRunDirectory(candidate)) found.push(candidate);
  }
  return found;
}

function notARun(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.dataInvalid, category: 'user', message });
}
