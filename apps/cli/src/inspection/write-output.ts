/**
 * Writes a command's output to stdout. Commands here write with process.stdout.write rather than
 * oclif's `this.log`, which goes through console.log: a test runner (or anything else) that
 * replaces the console would otherwise reformat or swallow output meant for a pipe.
 */
export function writeLine(text = ''): void {
  process.stdout.write(`${text}\n`);
}

/** A warning on stderr, one line, unwrapped (oclif's `this.warn` goes through console.error). */
export function writeWarning(message: string): void {
  process.stderr.write(`Warning: ${message}\n`);
}
