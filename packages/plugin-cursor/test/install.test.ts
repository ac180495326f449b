import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { OWN_SESSION_SENTINEL } from '@skillopt/sleep/harvest';
import { runPluginCommandLine } from '@skillopt/sleep/installer';

/**
 * The Cursor plugin installed into a temporary HOME: a local plugin folder with the manifest, the
 * command and the skill, their engine path filled in; Cursor's manifest holds only keys Cursor
 * accepts; uninstall leaves the home as it was.
 */
const packageRoot = path.resolve(__dirname, '..');
const repository = path.resolve(packageRoot, '..', '..');
// The keys a Cursor plugin manifest may have.
const CURSOR_MANIFEST_KEYS = [
  'name',
  'displayName',
  'description',
  'version',
  'author',
  'publisher',
  'homepage',
  'repository',
  'license',
  'logo',
  'keywords',
  'category',
  'tags',
  'commands',
  'agents',
  'skills',
  'rules',
  'hooks',
  'mcpServers',
];

let root: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-cursor-'));
  home = path.join(root, 'home');
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const run = (action: 'install' | 'uninstall', environment: Record<string, string> = {}) =>
  runPluginCommandLine(packageRoot, action, [], { write: () => undefined, environment: { HOME: home, ...environment }, workingDirectory: root });

function tree(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return (readdirSync(folder, { recursive: true, withFileTypes: true }) as Array<{ isFile(): boolean; parentPath: string; name: string }>)
    .filter((entry) => entry.isFile())
    .map((entry) => path.relative(folder, path.join(entry.parentPath, entry.name)))
    .sort();
}

describe('skillopt-plugin-cursor install', () => {
  it("copies the plugin into Cursor's local plugins folder, with a path to the engine that runs", async () => {
    await run('install');
    const local = path.join(home, '.cursor', 'plugins', 'local', 'skillopt-sleep');
    expect(tree(local)).toEqual([
      path.join('.cursor-plugin', 'plugin.json'),
      'README.md',
      path.join('commands', 'skillopt-sleep.md'),
      path.join('skills', 'skillopt-sleep', 'SKILL.md'),
    ]);
    const command = readFileSync(path.join(local, 'commands', 'skillopt-sleep.md'), 'utf8');
    expect(command.startsWith(OWN_SESSION_SENTINEL)).toBe(true);
    const engine = /node "([^"]+)" <action>/.exec(command)?.[1] as string;
    const status = execFileSync(process.execPath, [engine, 'status', '--project', root, '--json'], {
      env: { PATH: process.env.PATH, HOME: home },
      encoding: 'utf8',
    });
    expect(JSON.parse(status)).toMatchObject({ type: 'result', project: root });

    const before = readFileSync(path.join(local, 'skills', 'skillopt-sleep', 'SKILL.md'), 'utf8');
    await run('install');
    expect(readFileSync(path.join(local, 'skills', 'skillopt-sleep', 'SKILL.md'), 'utf8')).toBe(before);
    await run('uninstall');
    expect(tree(home)).toEqual([]);
  });

  it('follows CURSOR_HOME', async () => {
    const cursorHome = path.join(root, 'cursor');
    await run('install', { CURSOR_HOME: cursorHome });
    expect(tree(cursorHome)).toContain(path.join('plugins', 'local', 'skillopt-sleep', '.cursor-plugin', 'plugin.json'));
    expect(existsSync(path.join(home, '.cursor'))).toBe(false);
  });

  it("has a manifest of only the keys Cursor accepts, registered in the repository's marketplace", () => {
    const manifest = JSON.parse(readFileSync(path.join(packageRoot, '.cursor-plugin', 'plugin.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(manifest).filter((key) => !CURSOR_MANIFEST_KEYS.includes(key))).toEqual([]);
    expect(manifest).toMatchObject({ name: 'skillopt-sleep', commands: './commands/', skills: './skills/' });
    const marketplace = JSON.parse(readFileSync(path.join(repository, '.cursor-plugin', 'marketplace.json'), 'utf8')) as {
      plugins: Array<{ name: string; source: string }>;
    };
    expect(marketplace.plugins).toContainEqual(expect.objectContaining({ name: 'skillopt-sleep', source: 'packages/plugin-cursor' }));
  });
});
