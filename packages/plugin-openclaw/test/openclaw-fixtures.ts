import { execFile } from 'node:child_process';
import path from 'node:path';
import { sleepBinOf } from '@skillopt/sleep/installer';
import { ORIGINAL_SKILLOPT_FIXTURES } from '../../../testdata/paths';

/** This package's folder. */
export const PACKAGE_ROOT = path.resolve(__dirname, '..');

/** The `skillopt-sleep` bin of the @skillopt/sleep this package depends on, as an installed plugin runs it. */
export const SLEEP_BIN = sleepBinOf(PACKAGE_ROOT);

/** This package's own bin. */
export const PLUGIN_BIN = path.join(PACKAGE_ROOT, 'bin', 'skillopt-plugin-openclaw.js');

/** The DeepSeek preset, as the package ships it. */
export const DEEPSEEK_PRESET = path.join(PACKAGE_ROOT, 'presets', 'deepseek.json');

/** The original's three OpenClaw task files, in the repository's test data, never copied into the package. */
const OPENCLAW_TASKS = path.join(ORIGINAL_SKILLOPT_FIXTURES, 'plugins', 'openclaw', 'tests');

export const OPENCLAW_TASK_FILES = [
  { category: 'devops', file: path.join(OPENCLAW_TASKS, 'devops-tasks.json'), tasks: 5 },
  { category: 'research-cron', file: path.join(OPENCLAW_TASKS, 'research-cron-tasks.json'), tasks: 5 },
  { category: 'wiki', file: path.join(OPENCLAW_TASKS, 'wiki-tasks.json'), tasks: 4 },
] as const;

export interface NodeRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** `node <script> <args>` with only the environment given (and PATH): no key of the developer's leaks into a test. */
export function runNode(script: string, args: readonly string[], options: { cwd: string; environment: Record<string, string> }): Promise<NodeRun> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [script, ...args],
      { cwd: options.cwd, env: { PATH: process.env.PATH ?? '', ...options.environment }, encoding: 'utf8' },
      (error, stdout, stderr) => {
        resolve({ code: error === null ? 0 : typeof error.code === 'number' ? error.code : 1, stdout, stderr });
      },
    );
  });
}
