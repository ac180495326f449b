import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { locatePluginPackage } from '../src/plugins/plugin-package';
import { startSkillopt } from './helpers/cli-process';

// `skillopt plugin install | uninstall <id>` as a user runs them, in a temporary HOME: the plugin
// package is found beside the CLI, installed through Sleep's installer, and taken out again.

describe('skillopt plugin install and uninstall', () => {
  let home: string;
  let environment: NodeJS.ProcessEnv;
  const skillopt = (args: string[], extra: NodeJS.ProcessEnv = {}) => startSkillopt(args, home, { ...environment, ...extra }).ended;

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-plugin-'));
    environment = { HOME: home, SKILLOPT_SLEEP_HOME: '', CLAUDE_CONFIG_DIR: '' };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test("installs Claude Code's plugin around the user's settings, and uninstalls back to them", async () => {
    const settings = path.join(home, '.claude', 'settings.json');
    mkdirSync(path.dirname(settings), { recursive: true });
    writeFileSync(settings, '{\n  "model": "opus"\n}\n');
    const installed = await skillopt(['plugin', 'install', 'claude-code', '--json']);
    expect(installed.code).toBe(0);
    const result = JSON.parse(installed.stdout.trim().split('\n').at(-1) as string);
    expect(result).toMatchObject({ type: 'result', action: 'install', plugin: 'claude-code', scope: 'user' });
    expect(JSON.parse(readFileSync(settings, 'utf8'))).toMatchObject({ model: 'opus', enabledPlugins: { 'skillopt-sleep@skillopt': true } });
    expect(existsSync(path.join(home, '.skillopt-sleep', 'plugins', 'claude-code.json'))).toBe(true);

    const removed = await skillopt(['plugin', 'uninstall', 'claude-code']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Uninstalled the Claude Code plugin.');
    expect(readFileSync(settings, 'utf8')).toBe('{\n  "model": "opus"\n}\n');
  });

  test("installs GitHub Copilot's plugin into the Copilot CLI's config, and Devin's into a project", async () => {
    const copilot = await skillopt(['plugin', 'install', 'copilot', '--json'], { COPILOT_HOME: '' });
    expect(copilot.code).toBe(0);
    expect(JSON.parse(readFileSync(path.join(home, '.copilot', 'mcp-config.json'), 'utf8'))).toMatchObject({
      mcpServers: { 'skillopt-sleep': { type: 'local', command: 'node' } },
    });
    const project = path.join(home, 'project');
    mkdirSync(project);
    const devin = await skillopt(['plugin', 'install', 'devin', '--project', project]);
    expect(devin.code).toBe(0);
    expect(devin.stdout).toContain('devin mcp add skillopt-sleep -- node');
    expect(JSON.parse(readFileSync(path.join(project, '.devin', 'hooks.v1.json'), 'utf8'))).toMatchObject({ SessionEnd: [{ matcher: '' }] });

    expect((await skillopt(['plugin', 'uninstall', 'devin', '--project', project])).code).toBe(0);
    expect((await skillopt(['plugin', 'uninstall', 'copilot'])).code).toBe(0);
    expect(existsSync(path.join(project, '.devin'))).toBe(false);
    expect(existsSync(path.join(home, '.copilot'))).toBe(false);
  });

  test('a misspelt plugin is exit 2 naming the nearest; an unknown option too', async () => {
    const misspelt = await skillopt(['plugin', 'install', 'codx']);
    expect(misspelt.code).toBe(2);
    expect(misspelt.stderr).toContain('There is no SkillOpt plugin "codx"; did you mean "codex"?');
    const badFlag = await skillopt(['plugin', 'install', 'codex', '--projekt', '.']);
    expect(badFlag.code).toBe(2);
  });

  test('a plugin that is not installed is named with the npm install that fixes it', () => {
    expect(() => locatePluginPackage('cursor', [home])).toThrow(
      /@skillopt\/plugin-cursor is not installed \(looked from .*\)\. Install it, then run this again: npm install --global @skillopt\/plugin-cursor/,
    );
  });
});
