import { fileURLToPath } from 'node:url';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';
import { runPluginCommandLine } from '@skillopt/sleep/installer';
import { CONVERT_USAGE, runConvert } from './convert-command.js';

const COMMANDS = ['convert', 'install', 'uninstall'] as const;

const USAGE = `Usage: ${CONVERT_USAGE}
skillopt-plugin-openclaw install [--project <folder>] [--backend <name>] [--state-dir <folder>] [--json]
skillopt-plugin-openclaw uninstall [--project <folder>] [--state-dir <folder>] [--json]

install    puts the /sleep skill into OpenClaw's shared skills (~/.openclaw/skills, or $OPENCLAW_STATE_DIR/skills),
           or with --project into that workspace's skills folder, with the DeepSeek preset beside it
uninstall  takes out exactly what install added
           (skillopt-plugin-openclaw install --help tells more)
`;

export interface OpenClawCommandIo {
  write(text: string): void;
  writeError(text: string): void;
  environment: Readonly<Record<string, string | undefined>>;
  workingDirectory: string;
}

/**
 * `skillopt-plugin-openclaw`: `convert` is this plugin's own, `install` and `uninstall` are Sleep's
 * plugin installer working from this package's manifest. Resolves with the exit code.
 */
export async function runOpenClawCommandLine(packageRoot: string, argv: readonly string[], io: OpenClawCommandIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.write(USAGE);
    return command === undefined ? 2 : 0;
  }
  if (command === 'convert') return runConvert(rest, io);
  if (command === 'install' || command === 'uninstall') return runPluginCommandLine(packageRoot, command, rest, io);
  const nearest = nearestWord(command, COMMANDS);
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `unknown command "${command}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} The commands are ${COMMANDS.join(', ')}.`,
  });
}

/** The bin: this process's arguments, output and exit code; 2 for a problem the user can fix, 1 otherwise. */
export async function main(packageRootUrl: URL, argv: readonly string[]): Promise<void> {
  try {
    process.exitCode = await runOpenClawCommandLine(fileURLToPath(packageRootUrl), argv, {
      write: (text) => process.stdout.write(text),
      writeError: (text) => process.stderr.write(text),
      environment: process.env,
      workingDirectory: process.cwd(),
    });
  } catch (error) {
    process.stderr.write(`skillopt-plugin-openclaw: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = SkillOptError.isInstance(error) && error.category === 'user' ? 2 : 1;
  }
}
