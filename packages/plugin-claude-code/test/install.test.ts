import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { folderSnapshot } from '@skillopt/sleep/testing';
import { OWN_SESSION_SENTINEL } from '@skillopt/sleep/harvest';
import { runPluginCommandLine } from '@skillopt/sleep/installer';

/**
 * The Claude Code plugin installed into a temporary HOME (and a project): Claude Code's three
 * files get the marketplace, the installed plugin and its enabling, merged around the user's own
 * settings; a second install changes nothing; uninstall gives back what was there.
 */
const packageRoot = path.resolve(__dirname, '..');
const { version } = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8')) as { version: string };

let root: string;
let home: string;
let claudeHome: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-claude-code-'));
  home = path.join(root, 'home');
  claudeHome = path.join(home, '.claude');
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(action: 'install' | 'uninstall', ...args: string[]): Promise<{ exitCode: number; output: string }> {
  let output = '';
  const exitCode = await runPluginCommandLine(packageRoot, action, args, {
    write: (text) => {
      output += text;
    },
    environment: { HOME: home },
    workingDirectory: root,
  });
  return { exitCode, output };
}

const readJson = (file: string): Record<string, unknown> => JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;

const tree = folderSnapshot;

// Claude Code fills in the variable; in this file it is text.
const RUNNER = ['node "$', '{CLAUDE_PLUGIN_ROOT}/scripts/skillopt-sleep.mjs"'].join('');
const MARKETPLACE_SOURCE = () => ({ source: 'directory', path: packageRoot });

describe('skillopt-plugin-claude-code install', () => {
  it("registers the package as a local marketplace and enables the plugin, keeping the user's settings", async () => {
    mkdirSync(claudeHome, { recursive: true });
    writeFileSync(path.join(claudeHome, 'settings.json'), `${JSON.stringify({ model: 'opus', enabledPlugins: { 'other@market': true } }, null, 2)}\n`);
    const { exitCode, output } = await run('install');
    expect(exitCode).toBe(0);
    expect(output).toContain(`Installed the Claude Code plugin ${version} (for you).`);

    expect(readJson(path.join(claudeHome, 'settings.json'))).toEqual({
      model: 'opus',
      enabledPlugins: { 'other@market': true, 'skillopt-sleep@skillopt': true },
      extraKnownMarketplaces: { skillopt: { source: MARKETPLACE_SOURCE() } },
    });
    const marketplaces = readJson(path.join(claudeHome, 'plugins', 'known_marketplaces.json'));
    expect(marketplaces.skillopt).toMatchObject({ source: MARKETPLACE_SOURCE(), installLocation: packageRoot });
    const installed = readJson(path.join(claudeHome, 'plugins', 'installed_plugins.json'));
    expect(installed).toMatchObject({
      version: 2,
      plugins: { 'skillopt-sleep@skillopt': [{ scope: 'user', installPath: packageRoot, version }] },
    });
  });

  it('follows CLAUDE_CONFIG_DIR, changes nothing when run twice, and uninstalls back to the bytes it found', async () => {
    const configDirectory = path.join(root, 'claude-config');
    mkdirSync(configDirectory);
    writeFileSync(path.join(configDirectory, 'settings.json'), '{\n  "theme": "dark"\n}\n');
    const before = tree(configDirectory);
    const environment = { HOME: home, CLAUDE_CONFIG_DIR: configDirectory };
    const io = { write: () => undefined, environment, workingDirectory: root };
    await runPluginCommandLine(packageRoot, 'install', [], io);
    const installed = tree(configDirectory);
    expect(Object.keys(installed).sort()).toEqual([
      path.join('plugins', 'installed_plugins.json'),
      path.join('plugins', 'known_marketplaces.json'),
      'settings.json',
    ]);
    expect(existsSync(claudeHome)).toBe(false);

    await runPluginCommandLine(packageRoot, 'install', [], io);
    expect(tree(configDirectory)).toEqual(installed);

    await runPluginCommandLine(packageRoot, 'uninstall', [], io);
    expect(tree(configDirectory)).toEqual(before);
  });

  it('leaves a malformed settings file as it is and names where it breaks', async () => {
    mkdirSync(claudeHome, { recursive: true });
    const broken = '{ "model": "opus", }\n';
    writeFileSync(path.join(claudeHome, 'settings.json'), broken);
    await expect(run('install')).rejects.toThrow(/settings\.json is not valid JSON \(line 1, column 20\); nothing was written/);
    expect(tree(claudeHome)).toEqual({ 'settings.json': broken });
  });

  it('installs for one project in its settings.local.json, which Claude Code keeps out of git', async () => {
    const project = path.join(root, 'project');
    mkdirSync(project);
    await run('install', '--project', project);
    expect(readJson(path.join(project, '.claude', 'settings.local.json'))).toEqual({
      extraKnownMarketplaces: { skillopt: { source: MARKETPLACE_SOURCE() } },
      enabledPlugins: { 'skillopt-sleep@skillopt': true },
    });
    expect(existsSync(path.join(claudeHome, 'settings.json'))).toBe(false);
    expect(readJson(path.join(claudeHome, 'plugins', 'installed_plugins.json'))).toMatchObject({
      plugins: { 'skillopt-sleep@skillopt': [{ scope: 'project', projectPath: project }] },
    });
    await run('uninstall', '--project', project);
    expect(tree(project)).toEqual({});
  });

  it('refuses a misspelt backend before changing anything', async () => {
    await expect(run('install', '--backend', 'antropic')).rejects.toThrow(/did you mean "anthropic"\?/);
    expect(tree(home)).toEqual({});
  });
});

describe("the plugin's commands", () => {
  it('start every session they open with the sentinel that keeps it out of the harvest', () => {
    const commands = readdirSync(path.join(packageRoot, 'commands'));
    expect(commands.sort()).toEqual(['skillopt-sleep-handoff.md', 'skillopt-sleep.md']);
    for (const command of commands) {
      const text = readFileSync(path.join(packageRoot, 'commands', command), 'utf8');
      const body = text.replace(/^---\n[\s\S]*?\n---\n/, '');
      expect(body.startsWith(OWN_SESSION_SENTINEL)).toBe(true);
    }
  });

  it("run Sleep through the plugin's own runner, which finds the engine from the package's dependencies", () => {
    for (const command of readdirSync(path.join(packageRoot, 'commands')))
      expect(readFileSync(path.join(packageRoot, 'commands', command), 'utf8')).toContain(RUNNER);
  });
});
