import { stat } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { type LocationOptions, SINGLE_LOCATION_OPTIONS } from '../command-line/location-options.js';
import { minerFlag, splitFractionFlags } from '../command-line/mine-run.js';
import { personaFixture } from '../persona-fixtures.js';
import { parseSourceNames } from '../sources/source-names.js';
import type { NamedValue } from './unsafe-values.js';

/**
 * The flags of `sleep run` a schedule keeps, by their command-line names, passed to every night it
 * starts. The original kept only the project, the backend and the time, so everything else had to
 * live in a config file (upstream-sleep §9 item 28). `--since` and `--lookback` are not kept: a
 * scheduled night reads from where its project's last night stopped.
 */
export interface ScheduledNightFlags extends LocationOptions {
  skill?: string | undefined;
  tasks?: string | undefined;
  persona?: string | undefined;
  miner?: string | undefined;
  backend?: string | undefined;
  model?: string | undefined;
  config?: string | undefined;
  set?: readonly string[] | undefined;
  source?: readonly string[] | undefined;
  'edit-budget'?: number | string | undefined;
  'max-sessions'?: number | string | undefined;
  'max-tasks'?: number | string | undefined;
  'val-fraction'?: string | undefined;
  'test-fraction'?: string | undefined;
  'staging-in-project'?: boolean | undefined;
  'auto-adopt'?: boolean | undefined;
  recall?: number | string | undefined;
  'skill-root'?: readonly string[] | undefined;
}

// Flags whose value is a path: made absolute against the folder `schedule` ran in, since the night runs elsewhere.
const PATH_FLAGS = ['skill', 'tasks', 'config', ...SINGLE_LOCATION_OPTIONS] as const;
const TEXT_FLAGS = ['persona', 'miner', 'backend', 'model', 'val-fraction', 'test-fraction'] as const;
const WHOLE_NUMBER_FLAGS = ['edit-budget', 'max-sessions', 'max-tasks'] as const;
const SWITCH_FLAGS = ['staging-in-project', 'auto-adopt'] as const;

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${message} Nothing was scheduled.` });
}

async function requireFile(flag: string, file: string): Promise<void> {
  const found = await stat(file).catch(() => undefined);
  if (found?.isFile() !== true) throw refused(`--${flag} ${file}: no such file. A scheduled night would fail on it every night.`);
}

function wholeNumber(flag: string, value: number | string): number {
  const number = Number(value);
  if (String(value).trim() !== '' && Number.isInteger(number) && number >= 1) return number;
  throw refused(`--${flag} must be a whole number of at least 1, got ${JSON.stringify(String(value))}.`);
}

/**
 * The arguments of the scheduled `run`, after the bin: `run --project=<project>
 * --state-dir=<state directory>` and each kept flag, paths absolute, as `--name=value` (so that a
 * value starting with `-` stays a value). Every flag is checked now, as the night would check it,
 * so a mistake is reported to the person scheduling rather than to a log at 3 a.m. Also returns
 * every value, named, for the checks that refuse control characters and secrets.
 */
export async function scheduledNightArguments(
  flags: ScheduledNightFlags,
  context: { project: string; stateDirectory: string; workingDirectory: string },
): Promise<{ arguments: string[]; values: NamedValue[] }> {
  const words: Array<[flag: string, value: string | undefined]> = [
    ['project', context.project],
    ['state-dir', context.stateDirectory],
  ];
  if (flags.tasks !== undefined && flags.persona !== undefined) throw refused('--persona brings its own tasks: give it without --tasks.');
  if (flags.persona !== undefined) personaFixture(flags.persona);
  minerFlag(flags.miner);
  splitFractionFlags(flags);
  for (const flag of PATH_FLAGS) {
    const value = flags[flag];
    if (value === undefined) continue;
    const absolute = path.resolve(context.workingDirectory, value);
    if (flag === 'tasks' || flag === 'config') await requireFile(flag, absolute);
    words.push([flag, absolute]);
  }
  for (const folder of flags['vscode-workspace-storage'] ?? []) words.push(['vscode-workspace-storage', path.resolve(context.workingDirectory, folder)]);
  for (const folder of flags['skill-root'] ?? []) words.push(['skill-root', path.resolve(context.workingDirectory, folder)]);
  if (flags.recall !== undefined) {
    const recall = Number(flags.recall);
    if (!(String(flags.recall).trim() !== '' && Number.isInteger(recall) && recall >= 0))
      throw refused(`--recall must be a whole number of at least 0, got ${JSON.stringify(String(flags.recall))}.`);
    words.push(['recall', String(recall)]);
  }
  for (const flag of TEXT_FLAGS) words.push([flag, flags[flag]]);
  if (flags.source !== undefined) words.push(['source', parseSourceNames(flags.source).join(',')]);
  for (const flag of WHOLE_NUMBER_FLAGS) {
    const value = flags[flag];
    if (value !== undefined) words.push([flag, String(wholeNumber(flag, value))]);
  }
  for (const setting of flags.set ?? []) {
    if (setting.indexOf('=') < 1) throw refused(`--set takes key=value, got ${JSON.stringify(setting)}.`);
    words.push(['set', setting]);
  }
  const present = words.filter((word): word is [string, string] => word[1] !== undefined);
  const switches = SWITCH_FLAGS.filter((flag) => flags[flag] === true).map((flag) => `--${flag}`);
  return {
    arguments: ['run', ...present.map(([flag, value]) => `--${flag}=${value}`), ...switches],
    values: present.map(([flag, value]) => [`--${flag}`, value]),
  };
}
