import { parseArgs } from 'node:util';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { createPackageResolver, nearestWord } from '@skillopt/core';
import { dryRunNight } from '../night/dry-run-night.js';
import { PERSONAS, personaFixture } from '../persona-fixtures.js';

/** The subcommands of `skillopt-sleep`; `skillopt sleep …` in the CLI has the same ones. */
const SUBCOMMANDS = ['dry-run'] as const;

const USAGE = `Usage: skillopt-sleep <command> [flags]

Commands:
  dry-run   run one whole night on a task file and print its report; stages nothing

skillopt-sleep dry-run (--tasks <task file> --skill <skill document> | --persona <name>) [--config <file>] [--set key=value]... [--out <directory>] [--json]

  --tasks    the night's tasks (skillopt.sleep.tasks.v1, or the original's task files)
  --skill    the skill document whose learned block the night trains (read, never written)
  --persona  a shipped example instead: ${PERSONAS.join(' or ')} (its tasks and a starting skill document)
  --config   a SkillOpt config file (backends, gate settings) over the night's defaults
  --set      one config value, e.g. model.target_backend=openai or evaluation.gate_strategy=paired
  --out      where the night's files go (default ~/.skillopt-sleep/dry-runs/<timestamp>)
  --json     print the report as one JSON line, {"type":"result", ...}, instead of Markdown

Examples:
  skillopt-sleep dry-run --persona researcher
  skillopt-sleep dry-run --tasks tasks.json --skill .claude/skills/my-skill/SKILL.md --set evaluation.gate_strategy=paired
`;

export interface CommandLineIo {
  write(text: string): void;
  writeError(text: string): void;
  workingDirectory: string;
  /** Where packages are looked for after the working directory (the bin's own installation). */
  fallbackDirectories: readonly string[];
}

function usageError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${message}\n\n${USAGE}` });
}

/** `skillopt-sleep`: runs one subcommand and resolves with its exit code (1 when the night could not be validated). */
export async function runSleepCommandLine(argv: readonly string[], io: CommandLineIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.write(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (!(SUBCOMMANDS as readonly string[]).includes(command)) {
    const nearest = nearestWord(command, SUBCOMMANDS);
    throw usageError(`unknown command "${command}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`}`);
  }
  let values: { tasks?: string; skill?: string; persona?: string; config?: string; set?: string[]; out?: string; json?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: [...rest],
      options: {
        tasks: { type: 'string' },
        skill: { type: 'string' },
        persona: { type: 'string' },
        config: { type: 'string' },
        set: { type: 'string', multiple: true },
        out: { type: 'string' },
        json: { type: 'boolean' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
    }));
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  if (values.persona !== undefined && (values.tasks !== undefined || values.skill !== undefined))
    throw usageError('--persona brings its own tasks and skill document: give it without --tasks and --skill');
  const persona = values.persona === undefined ? undefined : personaFixture(values.persona);
  const tasksFile = persona?.tasksFile ?? values.tasks;
  const skillFile = persona?.skillFile ?? values.skill;
  if (tasksFile === undefined) throw usageError('dry-run needs --tasks <task file> (or --persona)');
  if (skillFile === undefined) throw usageError('dry-run needs --skill <skill document> (or --persona)');
  const night = await dryRunNight({
    tasksFile,
    skillFile,
    ...(values.out === undefined ? {} : { outputDirectory: values.out }),
    ...(values.config === undefined ? {} : { layers: [{ file: values.config }] }),
    overrides: values.set ?? [],
    workingDirectory: io.workingDirectory,
    resolver: createPackageResolver({ workingDirectory: io.workingDirectory, fallbackDirectories: io.fallbackDirectories }),
  });
  for (const warning of night.warnings) io.writeError(`Warning: ${warning}\n`);
  io.write(values.json ? `${JSON.stringify({ type: 'result', ...night.report })}\n` : night.markdown);
  if (!values.json) io.write(`\nReport written to ${night.outputDirectory}/report.md\n`);
  return night.report.outcome === 'refused' ? 1 : 0;
}
