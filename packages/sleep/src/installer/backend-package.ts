import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { conventionalPackageNames, FIRST_PARTY_PACKAGES, interpretPackageName, nearestWord } from '@skillopt/core';

/**
 * The backend a user names at install, put beside the plugin so that the engine — which resolves
 * backends by name from its own installation — finds it. No plugin declares a backend: this is
 * the one place a backend package gets installed for Sleep, and only when the user asks.
 */

export interface NpmResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

/** Runs npm with `args` in `directory`; a test passes a stand-in. */
export type NpmRunner = (args: readonly string[], directory: string) => Promise<NpmResult>;

const runNpm: NpmRunner = (args, directory) =>
  new Promise((resolve) => {
    execFile(process.platform === 'win32' ? 'npm.cmd' : 'npm', [...args], { cwd: directory, shell: process.platform === 'win32' }, (error, stdout, stderr) => {
      const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
      resolve({ exitCode: code, stdout: String(stdout), stderr: error !== null && stderr === '' ? error.message : String(stderr) });
    });
  });

export interface BackendPackage {
  packageName: string;
  /** The npm arguments that installed it; absent when it was there already (uninstall then leaves it). */
  installedBy?: string[] | undefined;
  /** Where npm ran. */
  directory: string;
}

function refused(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message });
}

/** The package a `--backend` value names: a first-party short name, or a third-party package's full name. */
export function backendPackageName(name: string): string {
  const request = interpretPackageName('backend', name);
  if (request.form === 'path') throw refused(`--backend takes a backend's name (openai, claude-code, …) or package name, not a path: ${name}`);
  if (request.asGiven === undefined) return request.conventional[0] as string;
  const ids = FIRST_PARTY_PACKAGES.backend.filter((known) => known.published).map((known) => known.id);
  if (ids.includes(name)) return conventionalPackageNames('backend', name)[0] as string;
  const nearest = nearestWord(name, ids);
  throw refused(
    `"${name}" is not one of SkillOpt's backends (${ids.join(', ')})${nearest === undefined ? '' : `; did you mean "${nearest.word}"?`} A third-party backend is named by its package name.`,
  );
}

/** Whether Node would find `packageName` from `packageRoot`: a node_modules folder of it or an ancestor holds it. */
function resolvesFrom(packageRoot: string, packageName: string): boolean {
  for (let folder = packageRoot; ; folder = path.dirname(folder)) {
    if (existsSync(path.join(folder, 'node_modules', ...packageName.split('/'), 'package.json'))) return true;
    if (path.dirname(folder) === folder) return false;
  }
}

/** The folder whose node_modules holds the plugin package: where a package beside it is installed. */
function installationFolder(packageRoot: string): string {
  const parts = packageRoot.split(path.sep);
  const index = parts.lastIndexOf('node_modules');
  if (index < 0)
    throw refused(
      `The plugin at ${packageRoot} is not an npm installation (a source checkout?), so no backend can be installed beside it. Install the plugin with npm, or install the backend where @skillopt/sleep resolves it.`,
    );
  if (parts.includes('_npx'))
    throw refused(
      `The plugin runs from npx's cache (${packageRoot}), which npm may clear at any time, and the runtime would then lose it. Install it for good: npm install -g ${path.basename(packageRoot)}`,
    );
  return parts.slice(0, index).join(path.sep) || path.sep;
}

/** Makes sure the backend resolves from the plugin's installation, installing it there when it does not. */
export async function ensureBackendPackage(request: { name: string; packageRoot: string; npm?: NpmRunner }): Promise<BackendPackage> {
  const packageName = backendPackageName(request.name);
  const npm = request.npm ?? runNpm;
  const folder = installationFolder(request.packageRoot);
  if (resolvesFrom(request.packageRoot, packageName)) return { packageName, directory: folder };
  const globalRoot = await npm(['root', '-g'], folder);
  const global = globalRoot.exitCode === 0 && request.packageRoot.startsWith(`${globalRoot.stdout.trim()}${path.sep}`);
  const args = global ? ['install', '--global', packageName] : ['install', packageName];
  const installed = await npm(args, folder);
  if (installed.exitCode !== 0)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'provider',
      message: `npm ${args.join(' ')} failed in ${folder} (exit ${installed.exitCode}): ${installed.stderr.trim().split('\n').slice(-3).join(' ')}`,
    });
  if (!resolvesFrom(request.packageRoot, packageName))
    throw refused(`npm ${args.join(' ')} succeeded in ${folder}, but ${packageName} still does not resolve from ${request.packageRoot}.`);
  return { packageName, installedBy: args, directory: folder };
}

/** Undoes what `ensureBackendPackage` installed (nothing when the package was there before). */
export async function removeBackendPackage(backend: BackendPackage, npm: NpmRunner = runNpm): Promise<string | undefined> {
  if (backend.installedBy === undefined) return undefined;
  const args = ['uninstall', ...backend.installedBy.slice(1)];
  const result = await npm(args, backend.directory);
  return result.exitCode === 0 ? undefined : `npm ${args.join(' ')} failed (exit ${result.exitCode}); remove ${backend.packageName} yourself.`;
}
