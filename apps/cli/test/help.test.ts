import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSkillopt } from './helpers/cli-process';
import { expectHelp, manifestCommands } from './helpers/help-manifest';

let scratch: string;
beforeAll(() => {
  scratch = mkdtempSync(path.join(os.tmpdir(), 'skillopt-help-'));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** `skillopt <args>` as a user runs it, stdout and stderr pipes (never a terminal, so nothing may prompt). */
const skillopt = (args: string[]) => startSkillopt(args, scratch, { SKILLOPT_NO_FAST_PATH: '1' }).ended;

describe('--help', () => {
  it('lists every command', () => {
    expect(Object.keys(manifestCommands()).sort()).toEqual([
      'config:print',
      'dashboard',
      'demo',
      'doctor',
      'env:new',
      'eval',
      'help',
      'init',
      'plugin:install',
      'plugin:uninstall',
      'runs:diff',
      'runs:list',
      'runs:show',
      'sim:serve',
      'sleep:adopt',
      'sleep:dry-run',
      'sleep:harvest',
      'sleep:mine',
      'sleep:run',
      'sleep:schedule',
      'sleep:status',
      'sleep:unschedule',
      'train',
      'worker',
    ]);
  });

  it.each(Object.keys(manifestCommands()))('has a summary, a description and examples for %s', (commandId) => {
    expectHelp(commandId, []);
  });

  it('takes -h for --help, at the root and after a command, and `help <command>` prints the same', async () => {
    const [root, rootShort, helpAlone, command, commandShort, helpCommand, topic, helpTopic] = await Promise.all([
      skillopt(['--help']),
      skillopt(['-h']),
      skillopt(['help']),
      skillopt(['runs', 'show', '--help']),
      skillopt(['runs', 'show', '-h']),
      skillopt(['help', 'runs', 'show']),
      skillopt(['runs', '--help']),
      skillopt(['help', 'runs']),
    ]);
    expect(root.code).toBe(0);
    expect(root.stdout).toMatch(/COMMANDS[\s\S]*\n {2}help {3,}Show the help of skillopt/);
    expect(rootShort).toEqual(root);
    expect(helpAlone).toEqual(root);
    expect(command.code).toBe(0);
    expect(command.stdout).toMatch(/^Show one run[\s\S]*USAGE\n {2}\$ skillopt runs show DIR/);
    expect(commandShort).toEqual(command);
    expect(helpCommand).toEqual(command);
    expect(topic.stdout).toContain('runs list');
    expect(helpTopic).toEqual(topic);
  });
});

describe('did you mean', () => {
  it('names the nearest command for a misspelt one, top-level or in a topic, asks nothing and exits 2', async () => {
    const [misspelt, inTopic, viaHelp, viaHelpFlag, far] = await Promise.all([
      skillopt(['trian']),
      skillopt(['runs', 'lst']),
      skillopt(['help', 'tarin']),
      skillopt(['tarin', '--help']),
      skillopt(['frobnicate']),
    ]);
    expect(misspelt).toMatchObject({ code: 2, stdout: '' });
    expect(misspelt.stderr).toContain('`trian` is not a skillopt command. Did you mean `skillopt train`?');
    expect(misspelt.stderr).not.toMatch(/\(y\/n\)|\?\s*$/i);
    expect(inTopic.code).toBe(2);
    expect(inTopic.stderr.replace(/\s*›\s*/g, ' ')).toContain('Did you mean `skillopt runs list`?');
    expect(viaHelp.code).toBe(2);
    expect(viaHelp.stderr).toContain('Did you mean `skillopt train`?');
    expect(viaHelpFlag).toEqual(viaHelp);
    expect(far.code).toBe(2);
    expect(far.stderr).toContain('`frobnicate` is not a skillopt command.');
    expect(far.stderr).not.toContain('Did you mean');
  });

  it('names the nearest flag of the command for a misspelt one and exits 2', async () => {
    const [one, two, withValue] = await Promise.all([
      skillopt(['train', '--confg', 'x.yaml']),
      skillopt(['eval', '--cnfig', 'a.yaml', '--skil', 'b.md']),
      skillopt(['runs', 'show', 'somewhere', '--jsn=true']),
    ]);
    const message = (result: { stderr: string }) => result.stderr.replace(/\s*›\s*/g, ' ');
    expect(one.code).toBe(2);
    expect(message(one)).toContain('unknown flag --confg (did you mean --config?): `skillopt train --help` lists the flags.');
    expect(two.code).toBe(2);
    expect(message(two)).toContain('unknown flags --cnfig (did you mean --config?), --skil (did you mean --skill?)');
    expect(withValue.code).toBe(2);
    expect(message(withValue)).toContain('unknown flag --jsn (did you mean --json?)');
  });
});
