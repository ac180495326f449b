import { access } from 'node:fs/promises';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';

/**
 * The error for a run-directory file that exists but cannot be used (not JSON, wrong shape, a skill
 * file that does not match its recorded hash). It is a user error, not a crash: the message names
 * the file, what is wrong with it and what the user can do, and nothing is overwritten.
 */
export function runFileError(options: { filePath: string; problem: string; remedy?: string | undefined; cause?: unknown }): SkillOptError {
  const remedy =
    options.remedy ?? 'Restore the file from a backup or a copy of the run directory, or start a new run in another directory; nothing was changed.';
  return new SkillOptError({
    code: ERROR_CODES.dataInvalid,
    category: 'user',
    retryable: false,
    message: `${options.filePath} ${options.problem}. ${remedy}`,
    cause: options.cause,
    details: { filePath: options.filePath, problem: options.problem },
  });
}

/** True for the error fs raises when a file does not exist. */
export function isFileNotFound(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === 'ENOENT';
}

/** Whether a file or directory exists; any error but its absence is thrown. */
export async function pathExists(filePath: string): Promise<boolean> {
  try {
    await access(filePath);
    return true;
  } catch (error) {
    if (isFileNotFound(error)) return false;
    throw error;
  }
}
