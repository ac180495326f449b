import { readdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { projectPathHash } from '../checkpoints/state-directory.js';
import { scheduledCronLines, withoutCronLines } from '../schedule/crontab-block.js';
import { CRONTAB_UNAVAILABLE_ERROR_CODE, userCrontab } from '../schedule/crontab-program.js';
import { SYSTEMD_UNIT_HEADER, SYSTEMD_UNIT_PREFIX, systemdUnits, systemdUserDirectory } from '../schedule/systemd-units.js';
import { refuseControlCharacters } from '../schedule/unsafe-values.js';

/** What `sleep unschedule` is asked, in either front end. */
export interface UnscheduleRequest {
  /** The project whose nightly night to remove; default the working directory. */
  project?: string | undefined;
  /** Every project's: the whole managed block of the crontab, or every unit file `schedule --systemd` wrote. */
  all?: boolean | undefined;
  systemd?: boolean | undefined;
  workingDirectory: string;
  /** Where HOME, XDG_CONFIG_HOME and the PATH of `crontab` come from; default this process's environment. */
  environment?: NodeJS.ProcessEnv | undefined;
}

export interface UnscheduleResult {
  scheduler: 'cron' | 'systemd';
  /** The project unscheduled; null with `all`. */
  project: string | null;
  /** What was removed: the crontab lines, or the unit files. Empty when nothing was scheduled. */
  removed: string[];
  /** cron: the projects the block still schedules (0: the block is gone, the crontab as it was before the first schedule). */
  remainingProjects?: number;
  /** systemd: what stops the removed timers and forgets their enablement, for the user to run (unschedule runs no systemctl). */
  disableCommand?: string;
}

/**
 * `sleep unschedule`: removes exactly what `sleep schedule` added and nothing else: the project's
 * line of the crontab's managed block (with `all`, every line of it), the block itself once it is
 * empty, or the unit files schedule wrote (known by their first line). Nothing scheduled is not an
 * error: the result says nothing was removed.
 */
export async function unscheduleNights(request: UnscheduleRequest): Promise<UnscheduleResult> {
  const environment = request.environment ?? process.env;
  if (request.all && request.project !== undefined)
    throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: 'give --project or --all, not both' });
  const project = request.all ? null : path.resolve(request.workingDirectory, request.project ?? '.');
  if (project !== null) refuseControlCharacters([['--project', project]]);
  if (request.systemd) return unscheduleSystemd(project, environment);
  const crontab = userCrontab(environment);
  const before = await crontab.read().catch((error: unknown) => {
    if (SkillOptError.isInstance(error) && error.code === CRONTAB_UNAVAILABLE_ERROR_CODE)
      throw new SkillOptError({
        code: CRONTAB_UNAVAILABLE_ERROR_CODE,
        category: 'internal',
        message: 'There is no `crontab` program on PATH, so there is no crontab to remove a line from (with --systemd, unschedule removes unit files).',
      });
    throw error;
  });
  const after = withoutCronLines(before, project === null ? 'all' : { projectHash: projectPathHash(project) });
  if (after.removed.length > 0) await crontab.write(after.crontab);
  return { scheduler: 'cron', project, removed: after.removed, remainingProjects: scheduledCronLines(after.crontab).length };
}

async function writtenBySchedule(file: string): Promise<boolean> {
  const text = await readFile(file, 'utf8').catch(() => undefined);
  return text?.startsWith(SYSTEMD_UNIT_HEADER) === true;
}

/** The files in the user's unit folder named as `schedule --systemd` names them; which of them it wrote, their first line says. */
async function everyUnitFile(directory: string): Promise<string[]> {
  const names = await readdir(directory).catch(() => []);
  return names
    .filter((name) => name.startsWith(SYSTEMD_UNIT_PREFIX) && (name.endsWith('.service') || name.endsWith('.timer')))
    .sort()
    .map((name) => path.join(directory, name));
}

async function unscheduleSystemd(project: string | null, environment: NodeJS.ProcessEnv): Promise<UnscheduleResult> {
  const directory = systemdUserDirectory(environment);
  const units = project === null ? undefined : systemdUnits(directory, projectPathHash(project));
  const candidates = units === undefined ? await everyUnitFile(directory) : [units.serviceFile, units.timerFile];
  const removed: string[] = [];
  for (const file of candidates) {
    if (!(await writtenBySchedule(file))) continue;
    await rm(file, { force: true });
    removed.push(file);
  }
  const timers = removed.filter((file) => file.endsWith('.timer')).map((file) => path.basename(file));
  return {
    scheduler: 'systemd',
    project,
    removed,
    ...(timers.length === 0 ? {} : { disableCommand: `systemctl --user disable --now ${timers.join(' ')}; systemctl --user daemon-reload` }),
  };
}

/** What was removed, as a person reads it. */
export function unscheduleSummary(result: UnscheduleResult): string {
  const whose = result.project === null ? 'any project' : result.project;
  if (result.removed.length === 0)
    return `Nothing to remove: no night of ${whose} is scheduled ${result.scheduler === 'cron' ? 'in your crontab' : 'as a systemd user timer'}.\n`;
  const lines =
    result.scheduler === 'cron'
      ? [
          `Removed ${result.removed.length} line(s) from your crontab:`,
          ...result.removed.map((line) => `  ${line}`),
          result.remainingProjects === 0
            ? 'No project is scheduled now; the block skillopt-sleep kept in your crontab is gone.'
            : `${result.remainingProjects} project(s) are still scheduled.`,
        ]
      : [
          `Removed ${result.removed.length} unit file(s):`,
          ...result.removed.map((file) => `  ${file}`),
          `If you had enabled the timer, stop it and forget it: ${result.disableCommand}`,
        ];
  return `${lines.join('\n')}\n`;
}
