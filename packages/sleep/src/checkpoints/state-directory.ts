import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';

/**
 * Where Sleep keeps what it remembers between nights: `$SKILLOPT_SLEEP_HOME`, else
 * `~/.skillopt-sleep` (the original's folder, so a user moving over finds it where it was). It
 * lives outside every project, because it holds prompts and replies.
 */
export function defaultStateDirectory(environment: Readonly<Record<string, string | undefined>> = process.env): string {
  const explicit = environment.SKILLOPT_SLEEP_HOME;
  if (explicit !== undefined && explicit.trim() !== '') return path.resolve(explicit);
  const home = environment.HOME !== undefined && environment.HOME !== '' ? environment.HOME : os.homedir();
  return path.join(home, '.skillopt-sleep');
}

/**
 * One project's own folder in the state directory: `projects/<name>-<hash>`, the folder's name
 * for a person reading the listing and a hash of its absolute path so two projects of the same
 * name never share state.
 */
export function projectStateDirectory(stateDirectory: string, project: string): string {
  const absolute = path.resolve(project);
  const name = (path.basename(absolute) || 'root').replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 40);
  return path.join(stateDirectory, 'projects', `${name}-${projectPathHash(absolute)}`);
}

/**
 * A project's short name for machines: the first 12 hex digits of the SHA-256 of its absolute
 * path. Its state folder ends with it, and its scheduled night is marked by it, so a crontab line
 * or a unit file can be matched to the folder by eye.
 */
export function projectPathHash(project: string): string {
  return createHash('sha256').update(path.resolve(project)).digest('hex').slice(0, 12);
}
