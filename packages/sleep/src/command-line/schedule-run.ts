import { access, mkdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { writeFileAtomic } from '@skillopt/core';
import { defaultStateDirectory, projectPathHash } from '../checkpoints/state-directory.js';
import { installedSleepBin } from '../installed-bin.js';
import { projectStateLayout } from '../project-state/project-state.js';
import { projectMarker, scheduledCronLines, withCronLine } from '../schedule/crontab-block.js';
import { CRONTAB_UNAVAILABLE_ERROR_CODE, userCrontab } from '../schedule/crontab-program.js';
import { checkEnvironmentFile, defaultEnvironmentFile } from '../schedule/environment-file.js';
import { clockText, type ScheduleTime, scheduleTimeOf } from '../schedule/schedule-time.js';
import { type ScheduledNightFlags, scheduledNightArguments } from '../schedule/scheduled-night.js';
import { shellCommandLine, shellQuote } from '../schedule/shell-words.js';
import { renderServiceUnit, renderTimerUnit, SYSTEMD_UNIT_HEADER, systemdUnits, systemdUserDirectory } from '../schedule/systemd-units.js';
import { type NamedValue, refuseControlCharacters, refuseSecrets } from '../schedule/unsafe-values.js';

/** What `sleep schedule` is asked, in either front end. */
export interface ScheduleRequest {
  /** The project whose nights to schedule; default the working directory. */
  project?: string | undefined;
  workingDirectory: string;
  /** Local time of day: `hour` 0–23 (default 3), `minute` 0–59 (default 17); text as typed, or numbers. */
  hour?: number | string | undefined;
  minute?: number | string | undefined;
  /** Sleep's state folder, passed to every night; default `$SKILLOPT_SLEEP_HOME`, else ~/.skillopt-sleep. */
  stateDirectory?: string | undefined;
  /** The file of NAME=value lines the night reads its keys from; default `<state directory>/sleep.env`. */
  environmentFile?: string | undefined;
  /** A systemd user timer (files only) instead of a crontab line. */
  systemd?: boolean | undefined;
  /** The flags of `sleep run` every night is started with. */
  night?: ScheduledNightFlags | undefined;
  /** Where HOME, XDG_CONFIG_HOME, SKILLOPT_SLEEP_HOME and the PATH of `crontab` come from; default this process's environment. */
  environment?: NodeJS.ProcessEnv | undefined;
}

export interface ScheduleResult {
  scheduler: 'cron' | 'systemd';
  project: string;
  hour: number;
  minute: number;
  /** The night the scheduler starts: the absolute node executable and bin, `run` and its flags, each word quoted for a shell. */
  command: string;
  /** The project was scheduled already (with this scheduler), and its line or units were replaced. */
  replaced: boolean;
  /** The file the night reads its API keys from, and whether it exists now; schedule neither creates nor reads it. */
  environmentFile: { path: string; exists: boolean };
  cron?: {
    /** The project's line in the managed block of the user's crontab. */
    line: string;
    /** Where each night's output is appended. */
    logFile: string;
    /** How many projects the block schedules now. */
    scheduledProjects: number;
  };
  systemd?: {
    serviceFile: string;
    timerFile: string;
    timer: string;
    /** What the user runs to start the timer: schedule runs no systemctl. */
    enableCommand: string;
    /** Where each night's output goes: the user's journal. */
    logCommand: string;
  };
  /** An environment file readable by others or owned by someone else, with the command that fixes it. */
  warnings: string[];
}

// Debian's cron reads at most 1000 characters of a line's command; a longer one would be cut, and fail every night.
const CRON_COMMAND_LIMIT = 999;

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** Every string among the night's flags, named by its flag, as the user gave it. */
function givenValues(flags: ScheduledNightFlags): NamedValue[] {
  return Object.entries(flags).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).filter((item): item is string => typeof item === 'string').map((item): NamedValue => [`--${name}`, item]),
  );
}

/**
 * The crontab command: the project's state folder made if a cleanup removed it, the night run in
 * the project's folder (where `sleep run` is run by hand, so the packages installed there are
 * found), the keys read from the environment file when there is one, and every line of output
 * appended to the log.
 */
function cronCommand(input: { command: readonly string[]; project: string; environmentFile: string; logFile: string }): string {
  const environmentFile = shellQuote(input.environmentFile);
  return [
    `mkdir -p ${shellQuote(path.dirname(input.logFile))} &&`,
    `{ cd ${shellQuote(input.project)} && if [ -f ${environmentFile} ]; then set -a; . ${environmentFile}; set +a; fi && ${shellCommandLine(input.command)}; }`,
    `>> ${shellQuote(input.logFile)} 2>&1`,
  ].join(' ');
}

/** The crontab line: cron reads `%` as a line break unless it is escaped, and it cannot pass a backslash followed by `%` at all. */
function cronLine(command: string, time: ScheduleTime, projectHash: string): string {
  if (command.includes('\\%')) throw refused('A value holds a backslash followed by %, which cron cannot pass to a command. Nothing was scheduled.');
  if (command.length > CRON_COMMAND_LIMIT)
    throw refused(
      `The scheduled command would be ${command.length} characters long, more than the ${CRON_COMMAND_LIMIT} some crons read of a line. Move --set values into a --config file, or schedule with --systemd. Nothing was scheduled.`,
    );
  return `${time.minute} ${time.hour} * * * ${command.replaceAll('%', '\\%')} ${projectMarker(projectHash)}`;
}

async function requireFolder(project: string): Promise<void> {
  const found = await stat(project).catch(() => undefined);
  if (found?.isDirectory() !== true) throw refused(`--project ${project}: no such folder. Nothing was scheduled.`);
}

async function requireBin(bin: string): Promise<void> {
  await access(bin).catch(() => {
    throw new SkillOptError({
      code: ERROR_CODES.internal,
      category: 'internal',
      message: `The skillopt-sleep bin of this installation is missing (${bin}); reinstall @skillopt/sleep. Nothing was scheduled.`,
    });
  });
}

/**
 * `sleep schedule`: a nightly `sleep run` of one project, in the user's crontab (a line in a block
 * of Sleep's own, replaced when the project is scheduled again, every other line kept byte for
 * byte) or as a systemd user service and timer (files only; the user enables them). The command
 * names the node executable and the bin by absolute path and every flag with its value, so the
 * night does not depend on cron's PATH or working directory. Every value is checked before
 * anything is written: the time, control characters, and secrets, which never go into a crontab
 * or a unit file (the night reads them from the environment file).
 */
export async function scheduleNight(request: ScheduleRequest): Promise<ScheduleResult> {
  const environment = request.environment ?? process.env;
  const { workingDirectory } = request;
  const project = path.resolve(workingDirectory, request.project ?? '.');
  const stateDirectory = request.stateDirectory === undefined ? defaultStateDirectory(environment) : path.resolve(workingDirectory, request.stateDirectory);
  const environmentFile =
    request.environmentFile === undefined ? defaultEnvironmentFile(stateDirectory) : path.resolve(workingDirectory, request.environmentFile);
  const bin = installedSleepBin();
  const locations: NamedValue[] = [
    ['--project', project],
    ['--state-dir', stateDirectory],
    ['--env-file', environmentFile],
    ['The node executable', process.execPath],
    ['The skillopt-sleep bin', bin],
  ];
  const flags = request.night ?? {};
  refuseControlCharacters([...locations, ...givenValues(flags)]);
  const time = scheduleTimeOf(request);
  const night = await scheduledNightArguments(flags, { project, stateDirectory, workingDirectory });
  refuseSecrets([...locations, ...night.values], environmentFile);
  await requireFolder(project);
  await requireBin(bin);
  const command = [process.execPath, bin, ...night.arguments];
  const keys = await checkEnvironmentFile(environmentFile);
  const common = {
    project,
    hour: time.hour,
    minute: time.minute,
    command: shellCommandLine(command),
    environmentFile: { path: environmentFile, exists: keys.exists },
    warnings: keys.warnings,
  };
  const projectHash = projectPathHash(project);
  if (request.systemd) {
    const units = systemdUnits(systemdUserDirectory(environment), projectHash);
    const replaced = await ownUnitFileExists(units.timerFile);
    await refuseForeignUnit(units.serviceFile);
    await refuseForeignUnit(units.timerFile);
    await writeFileAtomic(units.serviceFile, renderServiceUnit({ project, command, environmentFile }));
    await writeFileAtomic(units.timerFile, renderTimerUnit({ project, time, serviceName: units.serviceName }));
    return {
      scheduler: 'systemd',
      ...common,
      replaced,
      systemd: {
        serviceFile: units.serviceFile,
        timerFile: units.timerFile,
        timer: units.timerName,
        enableCommand: `systemctl --user daemon-reload && systemctl --user enable --now ${units.timerName}`,
        logCommand: `journalctl --user -u ${units.serviceName}`,
      },
    };
  }
  const logFile = projectStateLayout(stateDirectory, project).cronLogFile;
  const line = cronLine(cronCommand({ command, project, environmentFile, logFile }), time, projectHash);
  const crontab = userCrontab(environment);
  const before = await crontab.read().catch((error: unknown) => {
    if (SkillOptError.isInstance(error) && error.code === CRONTAB_UNAVAILABLE_ERROR_CODE)
      throw new SkillOptError({
        code: CRONTAB_UNAVAILABLE_ERROR_CODE,
        category: 'internal',
        message: `There is no \`crontab\` program on PATH, so nothing was scheduled. Add this line to your crontab by hand where cron is installed (\`crontab -e\`), or schedule with --systemd:\n${line}`,
        details: { cronLine: line },
      });
    throw error;
  });
  const after = withCronLine(before, projectHash, line);
  await mkdir(path.dirname(logFile), { recursive: true });
  if (after.crontab !== before) await crontab.write(after.crontab);
  return {
    scheduler: 'cron',
    ...common,
    replaced: after.replaced,
    cron: { line, logFile, scheduledProjects: scheduledCronLines(after.crontab).length },
  };
}

async function ownUnitFileExists(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text?.startsWith(SYSTEMD_UNIT_HEADER) === true;
}

/** A unit file of that name that `schedule` did not write is the user's, and is not overwritten. */
async function refuseForeignUnit(file: string): Promise<void> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  if (text !== undefined && !text.startsWith(SYSTEMD_UNIT_HEADER))
    throw refused(`${file} exists and was not written by skillopt-sleep schedule; it is left as it is. Nothing was scheduled.`);
}

/** What was scheduled, as a person reads it, with how to remove it. */
export function scheduleSummary(result: ScheduleResult, commandName = 'skillopt-sleep'): string {
  const when = `every day at ${clockText(result)}`;
  const removeFlags = `${result.scheduler === 'systemd' ? ' --systemd' : ''} --project ${shellQuote(result.project)}`;
  const lines: string[] = [];
  if (result.cron !== undefined) {
    lines.push(
      `Scheduled a night for ${result.project} ${when} in your crontab (${result.replaced ? 'its earlier line replaced' : 'a new line'}; ${result.cron.scheduledProjects} project(s) scheduled):`,
      `  ${result.cron.line}`,
      `Each night's output is appended to ${result.cron.logFile}.`,
    );
  }
  if (result.systemd !== undefined) {
    lines.push(
      `${result.replaced ? 'Rewrote' : 'Wrote'} a systemd user service and timer for a night of ${result.project} ${when}:`,
      `  ${result.systemd.serviceFile}`,
      `  ${result.systemd.timerFile}`,
      `Start the timer (schedule runs no systemctl): ${result.systemd.enableCommand}`,
      `Each night's output goes to your journal: ${result.systemd.logCommand}`,
    );
  }
  lines.push(
    `API keys are never written there: the night reads them from ${result.environmentFile.path}, NAME=value lines, chmod 600${result.environmentFile.exists ? '' : ' (it does not exist yet)'}.`,
    `To remove it: ${commandName} unschedule${removeFlags}`,
  );
  return `${lines.join('\n')}\n`;
}
