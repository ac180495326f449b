/**
 * One word for a POSIX shell, whatever it holds: inside single quotes nothing is special, and a single
 * quote itself is closed, escaped and reopened (`'\''`). The shell service runs the command line with
 * `bash -c`, so every word of it is quoted this way.
 */
export function shellWord(word: string): string {
  return `'${word.replaceAll("'", "'\\''")}'`;
}

/** The command line of an argument vector: each word quoted, separated by spaces. */
export function shellCommandLine(words: readonly string[]): string {
  return words.map(shellWord).join(' ');
}
