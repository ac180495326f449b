import path from 'node:path';
import { format } from 'node:util';
import { runCommand } from '@oclif/test';

const cliRoot = path.resolve(__dirname, '..', '..');

/**
 * Runs a skillopt command in-process with @oclif/test, from `workingDirectory` (the CLI resolves
 * configs and packages against the working directory, as it does for a user).
 *
 * oclif's `this.log` writes through `console.log`. @oclif/test captures process.stdout, and Jest
 * routes `console` to process.stdout only when it runs tests in band, so with several test files
 * (workers) the output would be lost: `console` is pointed at the streams for the command's run.
 */
export async function runSkillopt(args: string[], workingDirectory: string) {
  const previous = process.cwd();
  const previousExitCode = process.exitCode;
  const { log, error } = console;
  console.log = (...values: unknown[]) => process.stdout.write(`${format(...values)}\n`);
  console.error = (...values: unknown[]) => process.stderr.write(`${format(...values)}\n`);
  process.chdir(workingDirectory);
  try {
    return await runCommand(args, { root: cliRoot });
  } finally {
    process.chdir(previous);
    // oclif sets process.exitCode for a failed command; in-process that would fail Jest's own exit.
    process.exitCode = previousExitCode;
    console.log = log;
    console.error = error;
  }
}
