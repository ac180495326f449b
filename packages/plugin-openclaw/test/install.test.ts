import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { folderSnapshot } from '@skillopt/sleep/testing';
import { readTaskFile } from '@skillopt/sleep';
import { runOpenClawCommandLine } from '../src/command-line';
import { DEEPSEEK_PRESET, OPENCLAW_TASK_FILES, PACKAGE_ROOT, runNode } from './openclaw-fixtures';

/**
 * The OpenClaw plugin installed into a temporary HOME (and a workspace): the /sleep skill lands
 * where OpenClaw reads shared skills — under $OPENCLAW_STATE_DIR when it is set — with the preset
 * beside it, and the commands it gives run: Sleep's bin and this package's converter. A second
 * install changes nothing; uninstall leaves the home as it was.
 */

let root: string;
let home: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-openclaw-install-'));
  home = path.join(root, 'home');
  mkdirSync(home);
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function run(action: 'install' | 'uninstall', args: string[] = [], environment: Record<string, string> = {}): Promise<string> {
  let output = '';
  await runOpenClawCommandLine(PACKAGE_ROOT, [action, ...args], {
    write: (text) => {
      output += text;
    },
    writeError: (text) => {
      throw new Error(`unexpected error output: ${text}`);
    },
    environment: { HOME: home, ...environment },
    workingDirectory: root,
  });
  return output;
}

const tree = folderSnapshot;

/** The absolute paths the installed skill runs: Sleep's bin and this package's converter. */
function commandsOf(skill: string): { sleepBin: string; pluginBin: string } {
  const text = readFileSync(skill, 'utf8');
  const sleepBin = /node "([^"]+)" <action>/.exec(text)?.[1];
  const pluginBin = /node "([^"]+)" convert /.exec(text)?.[1];
  if (sleepBin === undefined || pluginBin === undefined) throw new Error(`${skill} names no engine or converter command`);
  return { sleepBin, pluginBin };
}

describe('skillopt-plugin-openclaw install', () => {
  it("puts the /sleep skill and the preset in OpenClaw's shared skills, with commands that run, and takes them out again", async () => {
    const before = tree(home);
    const output = await run('install');
    const skillFolder = path.join(home, '.openclaw', 'skills', 'sleep');
    const skill = path.join(skillFolder, 'SKILL.md');
    expect(readFileSync(skill, 'utf8')).toMatch(/^---\nname: sleep\n/);
    expect(readFileSync(path.join(skillFolder, 'presets', 'deepseek.json'), 'utf8')).toBe(readFileSync(DEEPSEEK_PRESET, 'utf8'));
    expect(output).toContain(`--config ${path.join(skillFolder, 'presets', 'deepseek.json')}`);

    // The commands the skill gives OpenClaw run from the workspace: the converter, then Sleep on its file.
    const workspace = path.join(root, 'workspace');
    mkdirSync(workspace);
    const { sleepBin, pluginBin } = commandsOf(skill);
    const [devops] = OPENCLAW_TASK_FILES;
    const environment = { HOME: home };
    const converted = await runNode(pluginBin, ['convert', devops.file, '--project', workspace, '--out', 'skillopt-tasks/devops.tasks.json'], {
      cwd: workspace,
      environment,
    });
    expect(converted).toMatchObject({ code: 0, stderr: '' });
    expect((await readTaskFile(path.join(workspace, 'skillopt-tasks', 'devops.tasks.json'))).file.tasks).toHaveLength(devops.tasks);
    const status = await runNode(sleepBin, ['status', '--project', workspace, '--json'], { cwd: workspace, environment });
    expect(JSON.parse(status.stdout)).toMatchObject({ type: 'result', project: workspace, nights: 0 });

    const installed = tree(home);
    await run('install');
    expect(tree(home)).toEqual(installed);

    await run('uninstall');
    expect(tree(home)).toEqual(before);
  });

  it('installs under $OPENCLAW_STATE_DIR when it is set', async () => {
    const state = path.join(root, 'openclaw-state');
    await run('install', [], { OPENCLAW_STATE_DIR: state });
    expect(Object.keys(tree(state))).toEqual([path.join('skills', 'sleep', 'SKILL.md'), path.join('skills', 'sleep', 'presets', 'deepseek.json')]);
    expect(existsSync(path.join(home, '.openclaw'))).toBe(false);
    expect(readFileSync(path.join(state, 'skills', 'sleep', 'SKILL.md'), 'utf8')).toContain(`${state}/.env`);
    await run('uninstall', [], { OPENCLAW_STATE_DIR: state });
    expect(tree(state)).toEqual({});
  });

  it('installs for one workspace into its skills folder', async () => {
    const workspace = path.join(root, 'workspace');
    mkdirSync(workspace);
    await run('install', ['--project', workspace]);
    expect(Object.keys(tree(workspace))).toEqual([path.join('skills', 'sleep', 'SKILL.md'), path.join('skills', 'sleep', 'presets', 'deepseek.json')]);
    expect(existsSync(path.join(home, '.openclaw'))).toBe(false);
    await run('uninstall', ['--project', workspace]);
    expect(tree(workspace)).toEqual({});
  });
});
