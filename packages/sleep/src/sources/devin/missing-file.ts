/** Whether a file-system error says the path is not there (as opposed to there but unreadable). */
export function isMissingFile(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}
