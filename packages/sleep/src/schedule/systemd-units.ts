import os from 'node:os';
import path from 'node:path';
import type { ScheduleTime } from './schedule-time.js';
import { clockText } from './schedule-time.js';

/** The first line of every unit file `schedule --systemd` writes: `unschedule` removes only files that start with it. */
export const SYSTEMD_UNIT_HEADER = '# Written by skillopt-sleep schedule';

/** A project's unit names and files: `skillopt-sleep-<project hash>.service` and `.timer` in the user's systemd folder. */
export interface SystemdUnits {
  directory: string;
  serviceName: string;
  timerName: string;
  serviceFile: string;
  timerFile: string;
}

/** The user's own unit folder: `$XDG_CONFIG_HOME/systemd/user`, else `~/.config/systemd/user`. */
export function systemdUserDirectory(environment: Readonly<Record<string, string | undefined>>): string {
  const configHome = environment.XDG_CONFIG_HOME;
  if (configHome !== undefined && path.isAbsolute(configHome)) return path.join(configHome, 'systemd', 'user');
  const home = environment.HOME !== undefined && environment.HOME !== '' ? environment.HOME : os.homedir();
  return path.join(home, '.config', 'systemd', 'user');
}

export const SYSTEMD_UNIT_PREFIX = 'skillopt-sleep-';

export function systemdUnits(directory: string, projectHash: string): SystemdUnits {
  const serviceName = `${SYSTEMD_UNIT_PREFIX}${projectHash}.service`;
  const timerName = `${SYSTEMD_UNIT_PREFIX}${projectHash}.timer`;
  return { directory, serviceName, timerName, serviceFile: path.join(directory, serviceName), timerFile: path.join(directory, timerName) };
}

/** A value systemd reads literally: `%` starts a specifier there, so it is doubled. */
function specifierSafe(value: string): string {
  return value.replaceAll('%', '%%');
}

/** One word of an `ExecStart=` line: double-quoted, with backslash and quote escaped, `$` and `%` doubled so systemd expands nothing. */
function execWord(word: string): string {
  const escaped = word.replace(/[\\"]/g, (character) => `\\${character}`).replaceAll('$', '$$$$');
  return `"${specifierSafe(escaped)}"`;
}

export interface ServiceUnitInput {
  project: string;
  /** The whole command: the node executable, the bin, `run` and its flags. */
  command: readonly string[];
  environmentFile: string;
}

/**
 * The service: one night, run once, in the project's folder as `skillopt-sleep run` would be run
 * by hand, its keys from the environment file when there is one (`-`: a missing file is no error).
 * Its output goes to the user's journal.
 */
export function renderServiceUnit(input: ServiceUnitInput): string {
  return [
    `${SYSTEMD_UNIT_HEADER} for ${input.project}; remove it with skillopt-sleep unschedule --systemd.`,
    '[Unit]',
    `Description=SkillOpt Sleep: a night for ${specifierSafe(input.project)}`,
    '',
    '[Service]',
    'Type=oneshot',
    `WorkingDirectory=${specifierSafe(input.project)}`,
    `EnvironmentFile=-${specifierSafe(input.environmentFile)}`,
    `ExecStart=${input.command.map(execWord).join(' ')}`,
    '',
  ].join('\n');
}

/** The timer: every day at the time given, and at the next start when the machine was off then (`Persistent=true`). */
export function renderTimerUnit(input: { project: string; time: ScheduleTime; serviceName: string }): string {
  return [
    `${SYSTEMD_UNIT_HEADER} for ${input.project}; remove it with skillopt-sleep unschedule --systemd.`,
    '[Unit]',
    `Description=SkillOpt Sleep: a night for ${specifierSafe(input.project)} every day at ${clockText(input.time)}`,
    '',
    '[Timer]',
    `OnCalendar=*-*-* ${clockText(input.time)}:00`,
    'Persistent=true',
    `Unit=${input.serviceName}`,
    '',
    '[Install]',
    'WantedBy=timers.target',
    '',
  ].join('\n');
}
