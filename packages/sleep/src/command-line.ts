import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SkillOptError } from '@skillopt/contract';
import { runSleepCommandLine } from './command-line/sleep-command-line.js';

/** The `skillopt-sleep` bin: the package's own command line, for plugins that do not install the CLI. */
export async function main(argv: readonly string[]): Promise<void> {
  const installation = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  try {
    process.exitCode = await runSleepCommandLine(argv, {
      write: (text) => process.stdout.write(text),
      writeError: (text) => process.stderr.write(text),
      workingDirectory: process.cwd(),
      fallbackDirectories: [installation],
    });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`skillopt-sleep: ${message}\n`);
    // As the CLI's: 2 for a usage or config problem the user can fix, 1 for a night that failed.
    process.exitCode = SkillOptError.isInstance(error) && error.category === 'user' ? 2 : 1;
  }
}
