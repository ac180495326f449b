import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { backendPackageName, ensureBackendPackage, type NpmRunner, removeBackendPackage } from '../src/installer/backend-package.js';

/**
 * The backend a user names at install is put beside the plugin, where the engine resolves it by
 * name. npm is a stand-in here that records its calls and installs an empty package: no registry.
 */
let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'backend-package-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function writePackage(folder: string, name: string): void {
  mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folder, 'package.json'), JSON.stringify({ name, version: '0.1.0' }));
}

/** A plugin package installed under `prefix`/node_modules, as npm leaves it. */
function installedPlugin(nodeModules: string): string {
  const packageRoot = path.join(nodeModules, '@skillopt', 'plugin-example');
  writePackage(packageRoot, '@skillopt/plugin-example');
  return packageRoot;
}

/** npm that answers `root -g` with `globalRoot` and installs into `<cwd>/node_modules` (or the global root). */
function fakeNpm(globalRoot: string, calls: Array<{ args: readonly string[]; directory: string }>, failure?: string): NpmRunner {
  return async (args, directory) => {
    calls.push({ args, directory });
    if (args[0] === 'root') return { exitCode: 0, stdout: `${globalRoot}\n`, stderr: '' };
    if (failure !== undefined) return { exitCode: 1, stdout: '', stderr: `npm error code E404\nnpm error ${failure}` };
    if (args[0] === 'install') {
      const name = args.at(-1) as string;
      writePackage(path.join(args.includes('--global') ? globalRoot : path.join(directory, 'node_modules'), ...name.split('/')), name);
    }
    return { exitCode: 0, stdout: '', stderr: '' };
  };
}

describe('the name --backend takes', () => {
  it('is a first-party short name, or a third-party package name', () => {
    expect(backendPackageName('openai')).toBe('@skillopt/backends-openai');
    expect(backendPackageName('claude-code')).toBe('@skillopt/backends-claude-code');
    expect(backendPackageName('@acme/backends-local')).toBe('@acme/backends-local');
  });

  it('suggests the nearest backend for a misspelt one, and refuses a path', () => {
    expect(() => backendPackageName('opnai')).toThrow(/"opnai" is not one of SkillOpt's backends \(.*openai.*\); did you mean "openai"\?/);
    expect(() => backendPackageName('./my-backend')).toThrow(/not a path/);
  });
});

describe('a backend package put beside the plugin', () => {
  it('is installed with npm in the project that holds the plugin, and found from the plugin afterwards', async () => {
    const project = path.join(root, 'project');
    const packageRoot = installedPlugin(path.join(project, 'node_modules'));
    const calls: Array<{ args: readonly string[]; directory: string }> = [];
    const npm = fakeNpm(path.join(root, 'global', 'lib', 'node_modules'), calls);
    const backend = await ensureBackendPackage({ name: 'openai', packageRoot, npm });
    expect(backend).toEqual({ packageName: '@skillopt/backends-openai', installedBy: ['install', '@skillopt/backends-openai'], directory: project });
    expect(calls.map((call) => call.args)).toEqual([
      ['root', '-g'],
      ['install', '@skillopt/backends-openai'],
    ]);

    // Already there: nothing is installed, and uninstall will leave it.
    const again = await ensureBackendPackage({ name: 'openai', packageRoot, npm });
    expect(again).toEqual({ packageName: '@skillopt/backends-openai', directory: project });
    expect(calls).toHaveLength(2);

    await removeBackendPackage(backend, npm);
    expect(calls.at(-1)).toEqual({ args: ['uninstall', '@skillopt/backends-openai'], directory: project });
  });

  it('is installed globally when the plugin was', async () => {
    const globalRoot = path.join(root, 'global', 'lib', 'node_modules');
    const packageRoot = installedPlugin(globalRoot);
    const calls: Array<{ args: readonly string[]; directory: string }> = [];
    const backend = await ensureBackendPackage({ name: 'anthropic', packageRoot, npm: fakeNpm(globalRoot, calls) });
    expect(backend.installedBy).toEqual(['install', '--global', '@skillopt/backends-anthropic']);
  });

  it('says what npm said when the install fails', async () => {
    const packageRoot = installedPlugin(path.join(root, 'project', 'node_modules'));
    const npm = fakeNpm(path.join(root, 'global'), [], '404 Not Found - GET https://registry.example/@skillopt%2fbackends-pi');
    await expect(ensureBackendPackage({ name: 'pi', packageRoot, npm })).rejects.toThrow(
      /npm install @skillopt\/backends-pi failed in .* \(exit 1\): .*404 Not Found/,
    );
  });

  it('is refused for a plugin run from npx’s cache or from a source checkout', async () => {
    const npx = installedPlugin(path.join(root, '.npm', '_npx', '4f2a', 'node_modules'));
    await expect(ensureBackendPackage({ name: 'openai', packageRoot: npx, npm: fakeNpm(root, []) })).rejects.toThrow(/npx's cache .* npm install -g/);
    const checkout = path.join(root, 'checkout', 'packages', 'plugin-example');
    writePackage(checkout, '@skillopt/plugin-example');
    await expect(ensureBackendPackage({ name: 'openai', packageRoot: checkout, npm: fakeNpm(root, []) })).rejects.toThrow(/not an npm installation/);
  });
});
