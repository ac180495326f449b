/**
 * `value` as one word of a POSIX shell command: in single quotes, where nothing is special, a
 * single quote inside written as `'\''`. Every word is quoted, plain or not, so that no value a
 * user passes (a path with a space, a `--set` with `$` or `;`) can become shell syntax.
 */
export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", `'\\''`)}'`;
}

/** The words as one shell command line, each quoted. */
export function shellCommandLine(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
