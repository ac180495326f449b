import path from 'node:path';
import { runCommand } from '@oclif/test';

const cliRoot = path.resolve(__dirname, '..', '..');

/**
 * Runs a skillopt command in-process with @oclif/test, from `workingDirectory` (the CLI resolves
 * configs and packages against the working directory, as it does for a user).
 */
export async function runSkillopt(args: string[], workingDirectory: string) {
  const previous = process.cwd();
  process.chdir(workingDirectory);
  try {
    return await runCommand(args, { root: cliRoot });
  } finally {
    process.chdir(previous);
  }
}
