import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectPathHash } from '../src/checkpoints/state-directory.js';
import { commandOfCronLine, createCrontabStandIn } from './crontab-stand-in.js';

// Each test runs skillopt-sleep and the command it schedules as processes, which a loaded machine
// slows many times over: the limit is there to catch a hang, not to time them.
jest.setTimeout(300_000);

// The bin as cron would meet it: `skillopt-sleep schedule` in a real process, then the line it
// installed run by `sh -c` with cron's bare environment, from another folder.

const bin = path.resolve(__dirname, '..', 'bin', 'skillopt-sleep.js');

function run(command: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(command, args, options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

let home: string;
let project: string;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-schedule-bin-'));
  project = path.join(home, 'app');
  mkdirSync(project);
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

describe('skillopt-sleep schedule, the line it installs, and unschedule', () => {
  test('the scheduled command runs a night in the bare environment cron gives it: the bin path is right, the env file is read, the output is logged', async () => {
    const crontab = createCrontabStandIn(path.join(home, 'cron'));
    const { SKILLOPT_SLEEP_HOME: _state, NODE_OPTIONS: _options, ...inherited } = process.env;
    const environment = { ...inherited, HOME: home, PATH: `${crontab.binDirectory}${path.delimiter}${process.env.PATH}` };
    const stateDirectory = path.join(home, 'state');
    const scheduled = await run(process.execPath, [bin, 'schedule', '--persona', 'researcher', '--state-dir', stateDirectory, '--json'], {
      cwd: project,
      env: environment,
    });
    expect(scheduled.stderr).toBe('');
    expect(scheduled.code).toBe(0);
    const result = JSON.parse(scheduled.stdout);
    expect(result).toMatchObject({ type: 'result', scheduler: 'cron', project, replaced: false });
    expect(crontab.text()).toContain(result.cron.line);

    // The env file is the user's; a line that leaves a mark shows the night's shell read it.
    const mark = path.join(home, 'env-file-was-read');
    writeFileSync(path.join(stateDirectory, 'sleep.env'), `SKILLOPT_SCHEDULE_TEST=1\ntouch '${mark}'\n`, { mode: 0o600 });
    const night = await run('/bin/sh', ['-c', commandOfCronLine(result.cron.line)], {
      cwd: home,
      env: { HOME: home, LOGNAME: 'tester', SHELL: '/bin/sh', PATH: '/usr/bin:/bin' },
    });
    expect(night).toEqual({ code: 0, stdout: '', stderr: '' });
    expect(existsSync(mark)).toBe(true);
    const projectState = path.join(stateDirectory, 'projects', `app-${projectPathHash(project)}`);
    const history = readFileSync(path.join(projectState, 'nights.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(history).toMatchObject([{ night: 1, outcome: 'accepted', project }]);
    expect(readFileSync(path.join(projectState, 'cron.log'), 'utf8')).toContain('# SkillOpt Sleep night 1: the gate accepted new rules');

    const removed = await run(process.execPath, [bin, 'unschedule', '--json'], { cwd: project, env: environment });
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toMatchObject({ type: 'result', removed: [result.cron.line], remainingProjects: 0 });
    expect(crontab.text()).toBe('');
  });

  test('exit codes: 2 for a bad hour, 1 without a crontab program (with the line to add by hand), 0 for nothing to remove', async () => {
    const environment = { HOME: home, PATH: path.join(home, 'no-bin') };
    const badHour = await run(process.execPath, [bin, 'schedule', '--hour', '25'], { cwd: project, env: environment });
    expect(badHour.code).toBe(2);
    expect(badHour.stderr).toContain('--hour must be a whole number from 0 to 23, got "25"');
    const noCrontab = await run(process.execPath, [bin, 'schedule'], { cwd: project, env: environment });
    expect(noCrontab.code).toBe(1);
    expect(noCrontab.stderr).toContain('There is no `crontab` program on PATH, so nothing was scheduled.');
    expect(noCrontab.stderr).toMatch(/\n17 3 \* \* \* mkdir -p .+ # skillopt-sleep project [0-9a-f]{12}\n$/);
    const nothing = await run(process.execPath, [bin, 'unschedule', '--systemd'], { cwd: project, env: environment });
    expect(nothing.code).toBe(0);
    expect(nothing.stdout).toBe(`Nothing to remove: no night of ${project} is scheduled as a systemd user timer.\n`);
  });
});
