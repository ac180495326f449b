import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { nearestWord } from '@skillopt/core';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import { SLEEP_CONFIG_FILE } from '../command-line/sleep-config-layers.js';
import { ensureBackendPackage, type NpmRunner, removeBackendPackage } from './backend-package.js';
import { installPlugin, type PluginInstallResult, type PluginUninstallResult, uninstallPlugin } from './install-plugin.js';
import { readPluginManifest } from './plugin-manifest.js';

export type PluginAction = 'install' | 'uninstall';

export interface PluginCommandIo {
  write(text: string): void;
  environment: Readonly<Record<string, string | undefined>>;
  workingDirectory: string;
  /** npm, for the backend package; a test passes a stand-in. */
  npm?: NpmRunner;
}

const OPTIONS = {
  project: { type: 'string', short: 'p' },
  backend: { type: 'string' },
  'state-dir': { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

function usage(runtime: string, command: string): string {
  return `Usage: ${command} install [--project <folder>] [--backend <name>] [--state-dir <folder>] [--json]
       ${command} uninstall [--project <folder>] [--state-dir <folder>] [--json]

install    puts SkillOpt-Sleep into ${runtime}: its files, and its entries in ${runtime}'s settings (merged, never
           overwriting yours); a second install changes nothing, and a malformed settings file is reported, not replaced
uninstall  takes out exactly what install added; what you changed since is left and listed

  --project    install for this project only, where ${runtime} has project installs (default: for you, in your home)
  --backend    the model backend of Sleep's nights (default sim, the simulated model): openai, anthropic, claude-code,
               codex, copilot, cursor, opencode, pi, handoff, or a third-party package name. Its package is installed
               beside the plugin with npm, and the choice is kept in ~/.skillopt-sleep/${SLEEP_CONFIG_FILE}
  --state-dir  Sleep's state folder (default $SKILLOPT_SLEEP_HOME or ~/.skillopt-sleep): the install's receipt goes there
  --json       print the result as one {"type":"result"} JSON line
`;
}

function usageError(message: string, text: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `${message}\n\n${text}` });
}

/** The `skillopt-sleep` bin of the @skillopt/sleep the plugin package itself depends on. */
export function sleepBinOf(packageRoot: string): string {
  const require = createRequire(path.join(packageRoot, 'package.json'));
  let manifestFile: string;
  try {
    manifestFile = require.resolve('@skillopt/sleep/package.json');
  } catch {
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `@skillopt/sleep does not resolve from the plugin at ${packageRoot}; reinstall the plugin package with npm.`,
    });
  }
  const { bin } = JSON.parse(readFileSync(manifestFile, 'utf8')) as { bin: Record<string, string> };
  return path.resolve(path.dirname(manifestFile), bin['skillopt-sleep'] as string);
}

function installSummary(result: PluginInstallResult, backend: string | undefined): string {
  const lines = [`Installed the ${result.runtime} plugin ${result.version} (${result.scope === 'user' ? 'for you' : 'for the project'}).`];
  for (const file of result.filesPlaced) lines.push(`  placed   ${file}`);
  for (const file of result.settingsChanged) lines.push(`  merged   ${file}`);
  for (const move of result.movedAside) lines.push(`  moved    ${move.from} aside to ${move.to}`);
  for (const backup of result.backups) lines.push(`  kept     your earlier file as ${backup}`);
  if (backend !== undefined) lines.push(`  backend  ${backend} for Sleep's nights`);
  lines.push(`  receipt  ${result.receipt}`, ...result.notes.map((note) => `\n${note}`));
  return `${lines.join('\n')}\n`;
}

function uninstallSummary(runtime: string, result: PluginUninstallResult, backendNote: string | undefined): string {
  if (!result.installed) return `The ${runtime} plugin is not installed here (no receipt at ${result.receipt}); nothing was changed.\n`;
  const lines = [`Uninstalled the ${runtime} plugin.`];
  for (const file of result.filesRemoved) lines.push(`  removed  ${file}`);
  for (const file of result.settingsChanged) lines.push(`  restored ${file}`);
  for (const file of result.restored) lines.push(`  put back ${file}`);
  for (const kept of result.keptChanged) lines.push(`  left     ${kept}`);
  if (backendNote !== undefined) lines.push(`  ${backendNote}`);
  return `${lines.join('\n')}\n`;
}

export interface PluginActionOptions {
  project?: string | undefined;
  backend?: string | undefined;
  stateDirectory?: string | undefined;
}

export interface PluginActionOutcome {
  /** What the action did, for a JSON result line. */
  result: ({ action: 'install' } & PluginInstallResult) | ({ action: 'uninstall' } & PluginUninstallResult);
  /** The same, for a person. */
  summary: string;
}

/** `install` or `uninstall` of the plugin package at `packageRoot`: its own bin and `skillopt plugin …` both call this. */
export async function performPluginAction(
  packageRoot: string,
  action: PluginAction,
  options: PluginActionOptions,
  io: Omit<PluginCommandIo, 'write'>,
): Promise<PluginActionOutcome> {
  const manifest = await readPluginManifest(packageRoot);
  const resolve = (value: string | undefined) => (value === undefined ? undefined : path.resolve(io.workingDirectory, value));
  const stateDirectory = resolve(options.stateDirectory) ?? defaultStateDirectory(io.environment);
  const project = resolve(options.project);
  if (action === 'uninstall') {
    if (options.backend !== undefined)
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: 'uninstall takes no --backend: it removes the backend package only if install added it.',
      });
    const result = await uninstallPlugin({ packageRoot, project, stateDirectory });
    const backendNote =
      result.backendPackage === undefined
        ? undefined
        : ((await removeBackendPackage(result.backendPackage, io.npm)) ??
          (result.backendPackage.installedBy === undefined ? undefined : `removed  ${result.backendPackage.packageName}`));
    return { result: { action, ...result }, summary: uninstallSummary(manifest.runtime, result, backendNote) };
  }
  if (packageRoot.split(path.sep).includes('_npx'))
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `This plugin runs from npx's cache (${packageRoot}), which npm may clear at any time, taking the installed plugin with it. Install the package for good first: npm install --global ${path.basename(path.dirname(packageRoot))}/${path.basename(packageRoot)}`,
    });
  const backend =
    options.backend === undefined
      ? undefined
      : await ensureBackendPackage({ name: options.backend, packageRoot, ...(io.npm === undefined ? {} : { npm: io.npm }) });
  const result = await installPlugin({
    packageRoot,
    project,
    stateDirectory,
    sleepBin: sleepBinOf(packageRoot),
    environment: io.environment,
    ...(backend === undefined
      ? {}
      : {
          backend,
          extraSettings: [
            {
              file: path.join(stateDirectory, SLEEP_CONFIG_FILE),
              set: [
                { path: ['model', 'target_backend'], value: options.backend },
                { path: ['model', 'optimizer_backend'], value: options.backend },
              ],
              append: [],
            },
          ],
        }),
  });
  return { result: { action, ...result }, summary: installSummary(result, options.backend) };
}

/** The command line of a plugin's bin after its action word: parses the flags, performs, prints. */
export async function runPluginCommandLine(packageRoot: string, action: PluginAction, argv: readonly string[], io: PluginCommandIo): Promise<number> {
  const manifest = await readPluginManifest(packageRoot);
  const text = usage(manifest.runtime, `skillopt-plugin-${manifest.id}`);
  let values: { project?: string; backend?: string; 'state-dir'?: string; json?: boolean; help?: boolean };
  try {
    values = parseArgs({ args: [...argv], options: OPTIONS, strict: true }).values;
  } catch (error) {
    throw usageError((error as Error).message, text);
  }
  if (values.help) {
    io.write(text);
    return 0;
  }
  const outcome = await performPluginAction(packageRoot, action, { project: values.project, backend: values.backend, stateDirectory: values['state-dir'] }, io);
  io.write(values.json ? `${JSON.stringify({ type: 'result', ...outcome.result })}\n` : outcome.summary);
  return 0;
}

const ACTIONS: readonly PluginAction[] = ['install', 'uninstall'];

/** What a plugin's `skillopt-plugin-<id>` bin runs: `install` or `uninstall`, this process's arguments, output and exit code. */
export async function runPluginBin(packageRootUrl: URL): Promise<void> {
  const packageRoot = fileURLToPath(packageRootUrl);
  const [action, ...rest] = process.argv.slice(2);
  const io = { write: (text: string) => process.stdout.write(text), environment: process.env, workingDirectory: process.cwd() };
  try {
    if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
      const manifest = await readPluginManifest(packageRoot);
      io.write(usage(manifest.runtime, `skillopt-plugin-${manifest.id}`));
      process.exitCode = action === undefined ? 2 : 0;
      return;
    }
    if (!(ACTIONS as readonly string[]).includes(action)) {
      const nearest = nearestWord(action, ACTIONS);
      throw new SkillOptError({
        code: ERROR_CODES.configInvalid,
        category: 'user',
        message: `unknown command "${action}"${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} The commands are install and uninstall.`,
      });
    }
    process.exitCode = await runPluginCommandLine(packageRoot, action as PluginAction, rest, io);
  } catch (error) {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = SkillOptError.isInstance(error) && error.category === 'user' ? 2 : 1;
  }
}
