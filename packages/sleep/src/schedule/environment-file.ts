import { stat } from 'node:fs/promises';
import path from 'node:path';

/** The file a scheduled night reads its API keys from, unless `--env-file` names another: `<state directory>/sleep.env`. */
const ENVIRONMENT_FILE_NAME = 'sleep.env';

export function defaultEnvironmentFile(stateDirectory: string): string {
  return path.join(stateDirectory, ENVIRONMENT_FILE_NAME);
}

export interface EnvironmentFileCheck {
  exists: boolean;
  /** What is wrong with it, each with the command that fixes it: a mode other than 0600, an owner other than the user. */
  warnings: string[];
}

/**
 * What a scheduled night's environment file is like. The file holds API keys, so it must be the
 * user's own and readable by no one else; `schedule` never writes it (nor creates it), it only
 * says when it is not so.
 */
export async function checkEnvironmentFile(file: string): Promise<EnvironmentFileCheck> {
  const found = await stat(file).catch(() => undefined);
  if (found === undefined) return { exists: false, warnings: [] };
  if (!found.isFile()) return { exists: true, warnings: [`${file} is not a file; a scheduled night reads its keys from a file of NAME=value lines.`] };
  const warnings: string[] = [];
  const mode = found.mode & 0o777;
  if (mode !== 0o600)
    warnings.push(`${file} has mode ${mode.toString(8).padStart(4, '0')}: it holds API keys, so only you should read it. Fix it with: chmod 600 ${file}`);
  const user = process.getuid?.();
  if (user !== undefined && found.uid !== user)
    warnings.push(
      `${file} belongs to user id ${found.uid}, not to you (${user}): whoever owns it can change the keys and settings your nights run with. Make it yours: chown ${user} ${file}`,
    );
  return { exists: true, warnings };
}
