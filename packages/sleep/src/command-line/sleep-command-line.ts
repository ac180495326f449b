import { parseArgs } from 'node:util';
import { AnswerPendingError, ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { createPackageResolver, nearestWord } from '@skillopt/core';
import { dryRunNight } from '../night/dry-run-night.js';
import { answersPendingStop } from '../answers-pending.js';
import { nightExitCode } from '../night/night-report.js';
import { projectNightExitCode, runProjectNight } from '../night/project-night.js';
import { DEFAULT_EDIT_BUDGET } from '../night/run-night.js';
import { adoptStaged, adoptionSummary } from './adopt-run.js';
import { readSleepStatus, statusSummary } from './status-run.js';
import { scheduleNight, scheduleSummary } from './schedule-run.js';
import { unscheduleNights, unscheduleSummary } from './unschedule-run.js';
import { nightInputFiles, PERSONAS } from '../persona-fixtures.js';
import { SESSION_SOURCES } from '../sources/session-sources.js';
import { harvestSummary, harvestWarnings, startHarvestRun } from './harvest-run.js';
import { DEFAULT_MINED_TASKS, mineExitCode, mineSessionsToTaskFile, minerFlag, splitFractionFlags } from './mine-run.js';
import { mineSummary } from './mine-summary.js';
import { modelFlagOverrides } from './model-flags.js';
import { type LocationOptions, sourceLocationsOf } from './location-options.js';
import { sleepConfigLayers } from './sleep-config-layers.js';
import { SLEEP_ACTION_NAMES, SLEEP_ACTIONS, type SleepActionName, type SleepOptions, sleepActionOptions } from './sleep-actions.js';
import type { ScheduledNightFlags } from '../schedule/scheduled-night.js';
import type { NightStageListener } from '../night/night-stages.js';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';

const USAGE = `Usage: skillopt-sleep <command> [flags]

Commands:
${SLEEP_ACTIONS.map((action) => `  ${action.name.padEnd(12)}${action.summary}`).join('\n')}

Every command takes --help (-h).

skillopt-sleep harvest [--source <names>]... [--project <folder>]... [--all-projects] [--since <time> | --lookback <span>] [--max-sessions <n>] [--state-dir <folder>] [--json]

  --source        sources to read, comma-separated or repeated (default: all of ${SESSION_SOURCES.map((source) => source.id).join(', ')})
  --project       a project folder whose sessions to read (repeatable; default: the current folder)
  --all-projects  read the sessions of every project
  --since         sessions that ended at or after this time (ISO date or time; no zone means UTC)
  --lookback      sessions that ended within this long before now: 90m, 72h, 3d, 2w; 0 reads all history
  --json          the session records as JSON Lines, then one {"type":"result", ...} line
  --claude-home, --codex-home, --copilot-home, --copilot-session-store, --vscode-workspace-storage,
  --cursor-home, --pi-home, --opencode-db, --devin-transcripts: where a source lives, if not its default

skillopt-sleep mine [--project <folder>] [--source <names>]... [--since <time> | --lookback <span>] [--miner heuristic|llm] [--backend <name>] [--model <id>] [--config <file>] [--set key=value]... [--max-sessions <n>] [--max-tasks <n>] [--val-fraction <f>] [--test-fraction <f>] [--out <task file>] [--state-dir <folder>] [--json]

  --project        the project whose sessions to mine (default: the current folder)
  --miner          heuristic (default: no model, tasks without references) or llm: the config's optimizer
                   model writes references, rubrics and rule checks (its calls in a ledger under the state directory)
  --backend, --model, --config, --set  the LLM miner's backend, as for dry-run (default: the simulated model)
  --max-tasks      the most tasks the file holds (default ${DEFAULT_MINED_TASKS})
  --val-fraction   the share of tasks held out to validate the night's edits (default 0.34)
  --test-fraction  the share held out as a test the night only reports (default 0)
  --out            the task file to write (default: under the project's folder in ~/.skillopt-sleep, outside the project)
  The harvest's --source, --since, --lookback, --max-sessions, --state-dir and source-location flags as above.
  Tasks the heuristic miner writes carry no reference yet: add the answer, a rubric or rule checks to those you want judged.

skillopt-sleep dry-run (--tasks <task file> --skill <skill document> | --persona <name>) [--backend <name>] [--model <id>] [--config <file>] [--set key=value]... [--out <directory>] [--json]

  --tasks    the night's tasks (skillopt.sleep.tasks.v1, or the original's task files)
  --skill    the skill document whose learned block the night trains (read, never written)
  --persona  a shipped example instead: ${PERSONAS.join(' or ')} (its tasks and a starting skill document)
  --backend  one backend for the target and the optimizer (default sim, the simulated model); --model its model
  --config   a SkillOpt config file (backends, gate settings) over the night's defaults
  --set      one config value, e.g. model.target_backend=openai or evaluation.gate_strategy=paired
  --out      where the night's files go (default ~/.skillopt-sleep/dry-runs/<timestamp>-<suffix>); a night an earlier
             dry run left there is replaced
  --json     print the report as one JSON line, {"type":"result", ...}, instead of Markdown

skillopt-sleep run [--project <folder>] [--skill <skill document>] [--tasks <task file> | --persona <name>] [--miner llm|heuristic] [--backend <name>] [--model <id>] [--config <file>] [--set key=value]... [--edit-budget <n>] [--recall <n>] [--skill-root <folder>]... [--staging-in-project] [--auto-adopt] [--state-dir <folder>] [--json]

  --project             the project the night is for (default: the current folder): its sessions, its state, its proposal
  --skill               the skill document whose learned block the night trains
                        (default: <project>/.claude/skills/skillopt-sleep-learned/SKILL.md, created on adoption if missing)
  --tasks               replay a reviewed task file of this project instead of harvesting (no checkpoint moves)
  --persona             a shipped example developer's tasks as this project's (${PERSONAS.join(' or ')}), to try a night on
  --miner               llm (default): the config's optimizer model mines the new sessions into tasks; heuristic: no model
  --backend, --model    one backend (and model) for both roles, e.g. --backend claude-code (its package installed beside)
  --config, --set       backends, gate and budget: e.g. --set budget.total.max_calls=200 --set budget.total.max_wall_seconds=1800
  --edit-budget         the most rules one night may add, change or remove (default ${DEFAULT_EDIT_BUDGET})
  --recall              add the n earlier tasks of this project most like tonight's to each skill's training (default 0)
  --skill-root          another folder of <name>/SKILL.md skills (repeatable): a task whose session used a skill by name
                        trains that skill, found there or in the project's .agents, .claude, .cursor, .devin skills
                        or Claude Code's ~/.claude/skills, each skill with its own gate and proposal
  --staging-in-project  stage in <project>/.skillopt-sleep/staging (with a .gitignore) instead of the state directory
  --auto-adopt          adopt what the night stages at once, as adopt does (undo it with adopt --undo)
  The harvest's --source, --since, --lookback, --max-sessions and source-location flags, and mine's --max-tasks,
  --val-fraction and --test-fraction, as above. The live document is never written: adopt does that.

skillopt-sleep status [--project <folder>] [--state-dir <folder>] [--json]

skillopt-sleep adopt [--project <folder>] [--staging <folder> | --skill <name>... | --all-skills] [--undo] [--state-dir <folder>] [--json]

  --staging     the staged proposal to adopt (default: the newest proposal of each skill, when it is the only one waiting)
  --skill       the skill whose newest proposal to adopt (repeatable), when a night proposed for several
  --all-skills  every skill's newest proposal that is waiting
  --undo        put back what the last adoption replaced (of the one skill adopted, or of those named)
  Adoption refuses when a document changed since its night read it, writes every document of the proposal or none,
  keeps a backup and a receipt, and finishes rolling back an adoption a crash interrupted before anything else.

skillopt-sleep schedule [--project <folder>] [--hour <0-23>] [--minute <0-59>] [--systemd] [--env-file <file>] [--state-dir <folder>] [run's flags]... [--json]

  --hour, --minute  the local time of the night (default 03:17)
  --systemd         write a systemd user service and timer (in ~/.config/systemd/user, or under $XDG_CONFIG_HOME) instead
                    of a crontab line, and print the systemctl command that starts them (schedule runs no systemctl)
  --env-file        the file of NAME=value lines the night reads API keys from, when it exists (default
                    <state directory>/sleep.env; chmod 600). Keys are never written into the crontab or a unit file.
  --state-dir       Sleep's state folder, passed to every night; the crontab line appends to <project's folder>/cron.log there
  Kept for every night, as run takes them: --skill, --tasks, --persona, --miner, --backend, --model, --config, --set
  (a secret is refused), --edit-budget, --staging-in-project, --auto-adopt, --source, --max-sessions, --max-tasks,
  --val-fraction, --test-fraction and the source-location flags. Scheduling a project again replaces its line.

skillopt-sleep unschedule [--project <folder> | --all] [--systemd] [--json]

  --all      every project's line (the whole block schedule keeps in your crontab), or with --systemd every unit it wrote
  Removes only what schedule added; every other line of your crontab is kept as it was.

Exit code 3: model requests wait for answers on disk (--backend handoff, its package installed beside): answer
each one in the folder the message names (its index.json lists them), then run the same command again. The
folder is in Sleep's state directory: dry-runs/handoff for dry-run, the project's handoff/ for run and mine.

Examples:
  skillopt-sleep harvest --lookback 7d
  skillopt-sleep mine --lookback 7d --out tasks.json
  skillopt-sleep dry-run --persona researcher
  skillopt-sleep dry-run --tasks tasks.json --skill .claude/skills/my-skill/SKILL.md --set evaluation.gate_strategy=paired
  skillopt-sleep run --persona researcher
  skillopt-sleep run --lookback 7d --set budget.total.max_calls=300
  skillopt-sleep status
  skillopt-sleep adopt
  skillopt-sleep schedule --hour 2 --minute 30 --backend claude-code
  skillopt-sleep schedule --systemd
  skillopt-sleep unschedule
`;

export interface CommandLineIo {
  write(text: string): void;
  writeError(text: string): void;
  workingDirectory: string;
  /** Where packages are looked for after the working directory (the bin's own installation). */
  fallbackDirectories: readonly string[];
  /**
   * Where the defaults are found: Sleep's state folder (SKILLOPT_SLEEP_HOME, HOME), the sources'
   * folders, the crontab program (PATH); default this process's environment. Backends read their
   * keys from the process's environment whatever this says.
   */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
  /** Stops a harvest, a mining or a night at its next safe point (core's `aborted`). */
  signal?: AbortSignal | undefined;
  /** Told each stage a command moves on to (harvest, mine, replay, consolidate, stage, report), for a progress display. */
  onStage?: NightStageListener | undefined;
  /** Under --json: also given the summary the command prints without it, for a front end that shows both (the MCP server). */
  writeSummary?(text: string): void;
  /** A command stopped because model requests wait for answers (exit 3): the stop itself, before its message goes to writeError. */
  onAnswersPending?(stop: AnswerPendingError): void;
}

/** The command's output: the result line under --json (and its summary to writeSummary), else the summary. */
function writeResult(io: CommandLineIo, json: boolean | undefined, result: Record<string, unknown>, summary: () => string): void {
  if (!json) {
    io.write(summary());
    return;
  }
  io.write(`${JSON.stringify({ type: 'result', ...result })}\n`);
  io.writeSummary?.(summary());
}

/** The state folder a command was given, else the one its environment names (only when the io brings an environment of its own). */
function stateDirectoryOf(given: string | undefined, io: CommandLineIo): string | undefined {
  return given ?? (io.environment === undefined ? undefined : defaultStateDirectory(io.environment));
}

/** The io's signal, stage listener and environment, as a request's fields, each only when given. */
function observersOf(io: CommandLineIo) {
  return {
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(io.onStage === undefined ? {} : { onStage: io.onStage }),
    ...(io.environment === undefined ? {} : { environment: io.environment }),
  };
}

function usageError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${message}\n\n${USAGE}` });
}

/** The exit code of a command stopped because requests wait for answers (the handoff backend), as the CLI's. */
const ANSWERS_PENDING_EXIT_CODE = 3;

/**
 * `skillopt-sleep`: runs one subcommand and resolves with its exit code: 1 when the night could
 * not be validated, 3 when model requests wait for answers on disk (the handoff backend), with
 * what to do next on stderr.
 */
export async function runSleepCommandLine(argv: readonly string[], io: CommandLineIo): Promise<number> {
  const [command, ...rest] = argv;
  if (command === undefined || command === '--help' || command === '-h' || command === 'help') {
    io.write(USAGE);
    return command === undefined ? 1 : 0;
  }
  if (!(SLEEP_ACTION_NAMES as readonly string[]).includes(command)) {
    const nearest = nearestWord(command, SLEEP_ACTION_NAMES);
    throw usageError(`unknown command "${command}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`}`);
  }
  try {
    return await runSubcommand(command as SleepActionName, rest, io);
  } catch (error) {
    if (!AnswerPendingError.isInstance(error)) throw error;
    io.onAnswersPending?.(error);
    io.writeError(`skillopt-sleep: ${answersPendingStop(error, `skillopt-sleep ${command}`).message}\n`);
    return ANSWERS_PENDING_EXIT_CODE;
  }
}

function runSubcommand(command: SleepActionName, rest: readonly string[], io: CommandLineIo): Promise<number> {
  if (command === 'harvest') return runHarvest(rest, io);
  if (command === 'mine') return runMine(rest, io);
  if (command === 'dry-run') return runDryRun(rest, io);
  if (command === 'run') return runNightCommand(rest, io);
  if (command === 'status') return runStatus(rest, io);
  if (command === 'adopt') return runAdopt(rest, io);
  if (command === 'schedule') return runSchedule(rest, io);
  return runUnschedule(rest, io);
}

/** `skillopt-sleep dry-run`: one whole night on a task file or a persona, its report printed. */
async function runDryRun(rest: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<{
    tasks?: string;
    skill?: string;
    persona?: string;
    config?: string;
    set?: string[];
    backend?: string;
    model?: string;
    out?: string;
    json?: boolean;
    help?: boolean;
  }>(rest, sleepActionOptions('dry-run'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const { tasksFile, skillFile } = nightInputFiles(values);
  const night = await dryRunNight({
    tasksFile,
    skillFile,
    ...(values.out === undefined ? {} : { outputDirectory: values.out }),
    layers: sleepConfigLayers({ configFile: values.config, ...(io.environment === undefined ? {} : { environment: io.environment }) }),
    overrides: [...modelFlagOverrides(values), ...(values.set ?? [])],
    workingDirectory: io.workingDirectory,
    resolver: createPackageResolver({ workingDirectory: io.workingDirectory, fallbackDirectories: io.fallbackDirectories }),
    ...(io.environment === undefined ? {} : { stateDirectory: defaultStateDirectory(io.environment) }),
    ...(io.signal === undefined ? {} : { signal: io.signal }),
    ...(io.onStage === undefined ? {} : { onStage: io.onStage }),
  });
  for (const warning of night.warnings) io.writeError(`Warning: ${warning}\n`);
  writeResult(io, values.json, { ...night.report }, () => `${night.markdown}\nReport written to ${night.outputDirectory}/report.md\n`);
  return nightExitCode(night.report);
}

function parseOptions<Values>(args: readonly string[], options: SleepOptions): Values {
  try {
    return parseArgs({ args: [...args], options, strict: true }).values as Values;
  } catch (error) {
    throw usageError(error instanceof Error ? error.message : String(error));
  }
}

type HarvestValues = LocationOptions & {
  source?: string[];
  since?: string;
  lookback?: string;
  'max-sessions'?: string;
  'state-dir'?: string;
  json?: boolean;
  help?: boolean;
};

function countOption(name: string, value: string): number {
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= 0)) throw usageError(`--${name} must be a whole number of at least 0, got ${value}`);
  return number;
}

function wholeNumberOption(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (!(Number.isInteger(number) && number >= 1)) throw usageError(`--${name} must be a whole number of at least 1, got ${value}`);
  return number;
}

/** The harvest part of a request, from the shared flags. */
function harvestRequestOf(values: HarvestValues, io: CommandLineIo) {
  return {
    ...(values.source === undefined ? {} : { sources: values.source }),
    since: values.since,
    lookback: values.lookback,
    maxSessions: wholeNumberOption('max-sessions', values['max-sessions']),
    stateDirectory: stateDirectoryOf(values['state-dir'], io),
    locations: sourceLocationsOf(values, io.workingDirectory),
    workingDirectory: io.workingDirectory,
    ...observersOf(io),
  };
}

/** The flags `mine` and `run` share: the project, the miner and its model, how many tasks and how they are split. */
type MineValues = HarvestValues & {
  project?: string;
  miner?: string;
  config?: string;
  set?: string[];
  backend?: string;
  model?: string;
  'max-tasks'?: string;
  'val-fraction'?: string;
  'test-fraction'?: string;
};

/** `skillopt-sleep mine`: what `skillopt sleep mine` does, printed as plain lines. */
async function runMine(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<MineValues & { out?: string }>(args, sleepActionOptions('mine'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const { result, warnings } = await mineSessionsToTaskFile({
    ...harvestRequestOf(values, io),
    project: values.project,
    maxTasks: wholeNumberOption('max-tasks', values['max-tasks']),
    ...splitFractionFlags(values),
    output: values.out,
    miner: minerFlag(values.miner),
    layers: sleepConfigLayers({ configFile: values.config, stateDirectory: stateDirectoryOf(values['state-dir'], io) }),
    overrides: [...modelFlagOverrides(values), ...(values.set ?? [])],
    resolver: createPackageResolver({ workingDirectory: io.workingDirectory, fallbackDirectories: io.fallbackDirectories }),
  });
  for (const warning of warnings) io.writeError(`Warning: ${warning}\n`);
  writeResult(io, values.json, { ...result }, () => mineSummary(result));
  return mineExitCode(result);
}

/** `skillopt-sleep harvest`: what `skillopt sleep harvest` does, printed as plain lines. */
async function runHarvest(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<HarvestValues & { project?: string[]; 'all-projects'?: boolean }>(args, sleepActionOptions('harvest'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  if (values['all-projects'] && values.project !== undefined) throw usageError('give --project or --all-projects, not both');
  const run = await startHarvestRun({
    ...harvestRequestOf(values, io),
    ...(values.project === undefined ? {} : { projects: values.project }),
    allProjects: values['all-projects'],
  });
  for await (const session of run.harvest.sessions) if (values.json) io.write(`${JSON.stringify({ type: 'session', ...session })}\n`);
  for (const warning of harvestWarnings(run.harvest.reports)) io.writeError(`Warning: ${warning}\n`);
  const result = run.result();
  writeResult(io, values.json, { ...result }, () => harvestSummary(result));
  return 0;
}

/** `skillopt-sleep run`: one night for one project, staged for review. */
async function runNightCommand(args: readonly string[], io: CommandLineIo): Promise<number> {
  type RunValues = MineValues & {
    skill?: string;
    tasks?: string;
    persona?: string;
    'edit-budget'?: string;
    'staging-in-project'?: boolean;
    'auto-adopt'?: boolean;
    'skill-root'?: string[];
    recall?: string;
  };
  const values = parseOptions<RunValues>(args, sleepActionOptions('run'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const result = await runProjectNight({
    ...harvestRequestOf(values, io),
    project: values.project,
    skill: values.skill,
    tasksFile: values.tasks,
    persona: values.persona,
    miner: minerFlag(values.miner),
    maxTasks: wholeNumberOption('max-tasks', values['max-tasks']),
    ...splitFractionFlags(values),
    editBudget: wholeNumberOption('edit-budget', values['edit-budget']),
    stagingInProject: values['staging-in-project'],
    autoAdopt: values['auto-adopt'],
    skillRoots: values['skill-root'],
    recall: values.recall === undefined ? undefined : countOption('recall', values.recall),
    layers: sleepConfigLayers({ configFile: values.config, stateDirectory: stateDirectoryOf(values['state-dir'], io) }),
    overrides: [...modelFlagOverrides(values), ...(values.set ?? [])],
    resolver: createPackageResolver({ workingDirectory: io.workingDirectory, fallbackDirectories: io.fallbackDirectories }),
    resumeCommand: 'skillopt-sleep run (the next night starts over)',
  });
  for (const warning of result.warnings) io.writeError(`Warning: ${warning}\n`);
  const { markdown, ...facts } = result;
  writeResult(
    io,
    values.json,
    facts,
    () => `${markdown}\nThe night's files: ${result.nightDirectory}\n${result.adoptions === undefined ? '' : adoptionSummary(result.adoptions)}`,
  );
  return projectNightExitCode(result);
}

/** `skillopt-sleep status`. */
async function runStatus(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<{ project?: string; 'state-dir'?: string; json?: boolean; help?: boolean }>(args, sleepActionOptions('status'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const status = await readSleepStatus({
    project: values.project,
    stateDirectory: stateDirectoryOf(values['state-dir'], io),
    workingDirectory: io.workingDirectory,
  });
  writeResult(io, values.json, { ...status }, () => statusSummary(status));
  return 0;
}

/** `skillopt-sleep adopt`. */
async function runAdopt(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<{
    project?: string;
    staging?: string;
    skill?: string[];
    'all-skills'?: boolean;
    undo?: boolean;
    'state-dir'?: string;
    json?: boolean;
    help?: boolean;
  }>(args, sleepActionOptions('adopt'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const result = await adoptStaged({
    project: values.project,
    staging: values.staging,
    skills: values.skill,
    allSkills: values['all-skills'],
    undo: values.undo ?? false,
    stateDirectory: stateDirectoryOf(values['state-dir'], io),
    workingDirectory: io.workingDirectory,
  });
  writeResult(io, values.json, { adoptions: result }, () => adoptionSummary(result));
  return 0;
}

/** `skillopt-sleep schedule`: a nightly `run` of the project, in the crontab or as systemd user units. */

async function runSchedule(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<
    ScheduledNightFlags & {
      project?: string;
      hour?: string;
      minute?: string;
      'env-file'?: string;
      systemd?: boolean;
      'state-dir'?: string;
      json?: boolean;
      help?: boolean;
    }
  >(args, sleepActionOptions('schedule'));
  const { project, hour, minute, 'env-file': environmentFile, systemd, 'state-dir': stateDirectory, json, help, ...night } = values;
  if (help) {
    io.write(USAGE);
    return 0;
  }
  const result = await scheduleNight({
    project,
    hour,
    minute,
    environmentFile,
    systemd,
    stateDirectory,
    night,
    workingDirectory: io.workingDirectory,
    ...(io.environment === undefined ? {} : { environment: io.environment as NodeJS.ProcessEnv }),
  });
  for (const warning of result.warnings) io.writeError(`Warning: ${warning}\n`);
  writeResult(io, json, { ...result }, () => scheduleSummary(result));
  return 0;
}

/** `skillopt-sleep unschedule`: removes what schedule added. */
async function runUnschedule(args: readonly string[], io: CommandLineIo): Promise<number> {
  const values = parseOptions<{ project?: string; all?: boolean; systemd?: boolean; json?: boolean; help?: boolean }>(args, sleepActionOptions('unschedule'));
  if (values.help) {
    io.write(USAGE);
    return 0;
  }
  const result = await unscheduleNights({
    project: values.project,
    all: values.all,
    systemd: values.systemd,
    workingDirectory: io.workingDirectory,
    ...(io.environment === undefined ? {} : { environment: io.environment as NodeJS.ProcessEnv }),
  });
  writeResult(io, values.json, { ...result }, () => unscheduleSummary(result));
  return 0;
}
