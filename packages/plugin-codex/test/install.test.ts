import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createPluginTestHome, folderSnapshot, type PluginTestHome } from '@skillopt/sleep/testing';

/**
 * The Codex plugin installed into a temporary HOME (and a project): the skill lands where Codex
 * reads skills, with a path to the engine that runs; the original's prompt is moved aside and put
 * back; a second install changes nothing; uninstall leaves the home as it was.
 */
const packageRoot = path.resolve(__dirname, '..');

let testHome: PluginTestHome;
let root: string;
let home: string;
beforeEach(() => {
  testHome = createPluginTestHome(packageRoot, 'plugin-codex-');
  ({ root, home } = testHome);
});
afterEach(() => testHome.remove());

const run = (action: 'install' | 'uninstall', args: string[] = [], environment: Record<string, string> = {}) => testHome.run(action, args, environment);

const tree = folderSnapshot;

/** The `node "<bin>"` command the installed skill tells Codex to run. */
function engineCommand(skill: string): string {
  const match = /node "([^"]+)" <action>/.exec(readFileSync(skill, 'utf8'));
  if (match === null) throw new Error(`${skill} names no engine command`);
  return match[1] as string;
}

describe('skillopt-plugin-codex install', () => {
  it('puts the skill in ~/.agents/skills with a path to the engine that runs, and moves the old prompt aside', async () => {
    const codexHome = path.join(root, 'codex');
    const legacyPrompt = path.join(codexHome, 'prompts', 'sleep.md');
    mkdirSync(path.dirname(legacyPrompt), { recursive: true });
    writeFileSync(legacyPrompt, 'the original SkillOpt-Sleep prompt\n');
    const before = { ...tree(home), ...tree(codexHome) };

    const output = await run('install', [], { CODEX_HOME: codexHome });
    const skill = path.join(home, '.agents', 'skills', 'skillopt-sleep', 'SKILL.md');
    expect(readFileSync(skill, 'utf8')).toMatch(/^---\nname: skillopt-sleep\n/);
    expect(existsSync(legacyPrompt)).toBe(false);
    expect(readFileSync(`${legacyPrompt}.skillopt-legacy.bak`, 'utf8')).toBe('the original SkillOpt-Sleep prompt\n');
    expect(output).toContain('.agents/skills/skillopt-sleep-learned/SKILL.md');

    // The command the skill gives Codex runs Sleep, from any folder.
    const status = execFileSync(process.execPath, [engineCommand(skill), 'status', '--project', root, '--json'], {
      env: { PATH: process.env.PATH, HOME: home },
      cwd: os.tmpdir(),
      encoding: 'utf8',
    });
    expect(JSON.parse(status)).toMatchObject({ type: 'result', project: root });

    const installed = { ...tree(home), ...tree(codexHome) };
    await run('install', [], { CODEX_HOME: codexHome });
    expect({ ...tree(home), ...tree(codexHome) }).toEqual(installed);

    await run('uninstall', [], { CODEX_HOME: codexHome });
    expect({ ...tree(home), ...tree(codexHome) }).toEqual(before);
  });

  it('installs for one project into its .agents/skills', async () => {
    const project = path.join(root, 'project');
    mkdirSync(project);
    await run('install', ['--project', project]);
    expect(Object.keys(tree(project))).toEqual([path.join('.agents', 'skills', 'skillopt-sleep', 'SKILL.md')]);
    expect(existsSync(path.join(home, '.agents'))).toBe(false);
    await run('uninstall', ['--project', project]);
    expect(tree(project)).toEqual({});
  });
});
