import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { projectPathHash } from '../src/checkpoints/state-directory.js';
import { type ScheduleRequest, scheduleNight, scheduleSummary } from '../src/command-line/schedule-run.js';
import { unscheduleNights, unscheduleSummary } from '../src/command-line/unschedule-run.js';
import { installedSleepBin } from '../src/installed-bin.js';
import { CRONTAB_BLOCK_END, CRONTAB_BLOCK_START } from '../src/schedule/crontab-block.js';
import { type CrontabStandIn, createCrontabStandIn } from './crontab-stand-in.js';

const ANTHROPIC_KEY = 'sk-ant-api03-planted-anthropic-key-0123456789';
const OPENAI_KEY = 'sk-proj-planted-openai-key-0123456789abcdef';

let home: string;
let project: string;
let crontab: CrontabStandIn;
let environment: NodeJS.ProcessEnv;
beforeEach(() => {
  home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-schedule-'));
  project = path.join(home, 'work', 'app');
  mkdirSync(project, { recursive: true });
  crontab = createCrontabStandIn(path.join(home, 'cron'));
  const { SKILLOPT_SLEEP_HOME: _state, XDG_CONFIG_HOME: _config, ...inherited } = process.env;
  environment = {
    ...inherited,
    HOME: home,
    PATH: `${crontab.binDirectory}${path.delimiter}${process.env.PATH}`,
    ANTHROPIC_API_KEY: ANTHROPIC_KEY,
    OPENAI_API_KEY: OPENAI_KEY,
  };
});
afterEach(() => rmSync(home, { recursive: true, force: true }));

const schedule = (request: Partial<ScheduleRequest> = {}) => scheduleNight({ project, workingDirectory: home, environment, ...request });
const unschedule = (request: { project?: string | undefined; all?: boolean; systemd?: boolean } = {}) =>
  unscheduleNights({ project, workingDirectory: home, environment, ...request });
const stateDirectory = () => path.join(home, '.skillopt-sleep');

describe('sleep schedule with cron', () => {
  test('a first schedule writes the managed block with one absolute command, quoted, logging to the project state folder', async () => {
    const result = await schedule();
    const text = crontab.text() as string;
    expect(text).toBe(`${CRONTAB_BLOCK_START}\n${result.cron?.line}\n${CRONTAB_BLOCK_END}\n`);
    const line = result.cron?.line as string;
    expect(line.startsWith('17 3 * * * ')).toBe(true);
    expect(line.endsWith(` # skillopt-sleep project ${projectPathHash(project)}`)).toBe(true);
    const bin = installedSleepBin();
    expect(path.isAbsolute(bin) && existsSync(bin)).toBe(true);
    expect(line).toContain(`'${process.execPath}' '${bin}' 'run' '--project=${project}' '--state-dir=${stateDirectory()}'`);
    // The only folder it changes into is the project's; never the package's.
    expect(line.match(/\bcd '[^']*'/g)).toEqual([`cd '${project}'`]);
    const logFile = path.join(stateDirectory(), 'projects', `app-${projectPathHash(project)}`, 'cron.log');
    expect(result.cron?.logFile).toBe(logFile);
    expect(line).toContain(`>> '${logFile}' 2>&1`);
    const environmentFile = path.join(stateDirectory(), 'sleep.env');
    expect(line).toContain(`if [ -f '${environmentFile}' ]; then set -a; . '${environmentFile}'; set +a; fi`);
    expect(result).toMatchObject({
      scheduler: 'cron',
      project,
      hour: 3,
      minute: 17,
      replaced: false,
      environmentFile: { path: environmentFile, exists: false },
    });
    expect(result.cron?.scheduledProjects).toBe(1);
    expect(existsSync(environmentFile)).toBe(false);
    expect(scheduleSummary(result)).toContain(`To remove it: skillopt-sleep unschedule --project '${project}'`);
  });

  test("the user's own lines are kept byte for byte, around the block, through schedule, reschedule and unschedule", async () => {
    const own = 'MAILTO=me@example.com\r\n# my backups\n0 * * * * /usr/local/bin/backup --all 50% \\% done\n\n';
    crontab.set(own);
    await schedule();
    expect((crontab.text() as string).startsWith(own)).toBe(true);
    const after = '30 6 * * 1 echo weekly\n# no newline at the end';
    crontab.set(`${crontab.text()}${after}`);
    await schedule({ hour: 4, minute: 5 });
    const text = crontab.text() as string;
    expect(text.startsWith(own)).toBe(true);
    expect(text.endsWith(`${CRONTAB_BLOCK_END}\n${after}`)).toBe(true);
    const removed = await unschedule();
    expect(removed.removed).toHaveLength(1);
    expect(crontab.text()).toBe(`${own}${after}`);
  });

  test('scheduling the same project again replaces its line; nothing changed writes nothing', async () => {
    await schedule();
    const again = await schedule({ hour: '4', minute: '5', night: { backend: 'claude-code', 'auto-adopt': true } });
    expect(again.replaced).toBe(true);
    const lines = (crontab.text() as string).split('\n').filter((line) => line.includes('# skillopt-sleep project'));
    expect(lines).toEqual([again.cron?.line]);
    expect(again.cron?.line.startsWith('5 4 * * * ')).toBe(true);
    expect(again.cron?.line).toContain("'--backend=claude-code' '--auto-adopt'");
    const writes = crontab.calls().filter((call) => call === '-').length;
    await schedule({ hour: 4, minute: 5, night: { backend: 'claude-code', 'auto-adopt': true } });
    expect(crontab.calls().filter((call) => call === '-').length).toBe(writes);
  });

  test('keeps recall and skill roots for every night, a relative root made absolute', async () => {
    const scheduled = await schedule({ night: { recall: '5', 'skill-root': ['shared-skills'] } });
    expect(scheduled.cron?.line).toContain("'--recall=5'");
    expect(scheduled.cron?.line).toMatch(/'--skill-root=\/[^']*\/shared-skills'/);
    await expect(schedule({ night: { recall: '-1' } })).rejects.toThrow('--recall must be a whole number of at least 0');
  });

  test('two projects get two lines; unscheduling one leaves the other; --all removes the block', async () => {
    const own = '0 1 * * * /usr/bin/true\n';
    crontab.set(own);
    const other = path.join(home, 'work', 'other project');
    mkdirSync(other);
    await schedule();
    const second = await schedule({ project: other, minute: 40 });
    expect(second.cron?.scheduledProjects).toBe(2);
    expect(second.cron?.line).toContain(`cd '${other}'`);
    const one = await unschedule();
    expect(one).toMatchObject({ scheduler: 'cron', project, remainingProjects: 1 });
    expect(crontab.text()).toBe(`${own}${CRONTAB_BLOCK_START}\n${second.cron?.line}\n${CRONTAB_BLOCK_END}\n`);
    await schedule();
    const all = await unschedule({ project: undefined, all: true });
    expect(all).toMatchObject({ project: null, remainingProjects: 0 });
    expect(all.removed).toHaveLength(2);
    expect(crontab.text()).toBe(own);
    expect(unscheduleSummary(all)).toContain('the block skillopt-sleep kept in your crontab is gone');
  });

  test('unschedule with nothing scheduled says so, and writes nothing', async () => {
    const result = await unschedule();
    expect(result).toEqual({ scheduler: 'cron', project, removed: [], remainingProjects: 0 });
    expect(unscheduleSummary(result)).toBe(`Nothing to remove: no night of ${project} is scheduled in your crontab.\n`);
    expect(crontab.calls()).toEqual(['-l']);
    await expect(unschedule({ all: true })).rejects.toThrow('give --project or --all, not both');
  });

  test('no API key reaches the crontab, even with keys in the environment and a real backend named', async () => {
    const result = await schedule({ night: { backend: 'openai', model: 'gpt-5-mini', set: ['budget.total.max_usd=2'] } });
    const text = crontab.text() as string;
    for (const secret of [ANTHROPIC_KEY, OPENAI_KEY, 'API_KEY', 'sk-']) expect(text).not.toContain(secret);
    expect(JSON.stringify(result)).not.toContain('sk-');
    expect(text).toContain("'--set=budget.total.max_usd=2'");
  });

  test('a --set that names or looks like a secret is refused, pointing at the environment file; nothing is written', async () => {
    const environmentFile = path.join(stateDirectory(), 'sleep.env');
    await expect(schedule({ night: { set: ['backends.openai.api_key=abc123'] } })).rejects.toMatchObject({
      category: 'user',
      message: expect.stringContaining(`--set backends.openai.api_key=… looks like a secret`),
    });
    await expect(schedule({ night: { set: [`model.target=${OPENAI_KEY}`] } })).rejects.toThrow(`Put it in ${environmentFile} instead`);
    await expect(schedule({ night: { model: ANTHROPIC_KEY } })).rejects.toThrow('--model looks like a secret');
    expect(crontab.calls()).toEqual([]);
  });

  test('hour, minute and control characters are checked before anything is written', async () => {
    await expect(schedule({ hour: 24 })).rejects.toThrow('--hour must be a whole number from 0 to 23, got "24"');
    await expect(schedule({ minute: '60' })).rejects.toThrow('--minute must be a whole number from 0 to 59');
    await expect(schedule({ hour: '3.5' })).rejects.toMatchObject({ category: 'user' });
    await expect(schedule({ night: { model: 'gpt\n* * * * * rm -rf ~' } })).rejects.toThrow('--model holds a control character (U+000A)');
    await expect(schedule({ project: `${project}\u0007` })).rejects.toThrow('--project holds a control character (U+0007)');
    await expect(schedule({ night: { config: 'missing.yaml' } })).rejects.toThrow(`--config ${path.join(home, 'missing.yaml')}: no such file`);
    await expect(schedule({ night: { persona: 'researchr' } })).rejects.toThrow('did you mean "researcher"?');
    await expect(schedule({ project: path.join(home, 'nowhere') })).rejects.toThrow('no such folder');
    expect(crontab.calls()).toEqual([]);
  });

  test('paths are made absolute, every value is quoted, and % is escaped for cron', async () => {
    mkdirSync(path.join(home, 'configs'));
    writeFileSync(path.join(home, 'configs', 'night.yaml'), 'budget:\n  total:\n    max_calls: 300\n');
    const result = await schedule({
      night: { config: 'configs/night.yaml', skill: 'SKILL.md', set: ["judge.note=it's 100% done"], source: ['claude', 'codex'] },
    });
    const line = result.cron?.line as string;
    expect(line).toContain(`'--skill=${path.join(home, 'SKILL.md')}' '--config=${path.join(home, 'configs', 'night.yaml')}'`);
    expect(line).toContain("'--source=claude-code,codex'");
    expect(line).toContain(`'--set=judge.note=it'\\''s 100\\% done'`);
  });

  test('an environment file readable by others is warned about, with the command that fixes it', async () => {
    const environmentFile = path.join(home, 'keys.env');
    writeFileSync(environmentFile, `OPENAI_API_KEY=${OPENAI_KEY}\n`);
    chmodSync(environmentFile, 0o644);
    const loose = await schedule({ environmentFile: 'keys.env' });
    expect(loose.environmentFile).toEqual({ path: environmentFile, exists: true });
    expect(loose.warnings).toEqual([
      `${environmentFile} has mode 0644: it holds API keys, so only you should read it. Fix it with: chmod 600 ${environmentFile}`,
    ]);
    expect(crontab.text()).toContain(`. '${environmentFile}'`);
    expect(crontab.text()).not.toContain(OPENAI_KEY);
    chmodSync(environmentFile, 0o600);
    expect((await schedule({ environmentFile: 'keys.env' })).warnings).toEqual([]);
  });

  test('without a crontab program it says so and prints the line to add by hand (exit 1)', async () => {
    const empty = path.join(home, 'empty-bin');
    mkdirSync(empty);
    environment = { ...environment, PATH: empty };
    const refused = await schedule().catch((error: unknown) => error);
    expect(refused).toMatchObject({ code: 'crontab-unavailable', category: 'internal' });
    const line = (refused as { details: { cronLine: string } }).details.cronLine;
    expect((refused as Error).message).toContain(`Add this line to your crontab by hand`);
    expect((refused as Error).message.endsWith(`\n${line}`)).toBe(true);
    await expect(unschedule()).rejects.toMatchObject({ code: 'crontab-unavailable' });
  });

  test('a crontab that fails is reported with what it said; a damaged block is left alone', async () => {
    crontab.refuse();
    await expect(schedule()).rejects.toMatchObject({
      code: 'crontab-failed',
      message: expect.stringContaining('You are not allowed to use this program'),
    });
    const damaged = createCrontabStandIn(path.join(home, 'cron-damaged'));
    environment = { ...environment, PATH: `${damaged.binDirectory}${path.delimiter}${process.env.PATH}` };
    damaged.set(`${CRONTAB_BLOCK_START}\n0 1 * * * echo mine\n`);
    await expect(schedule()).rejects.toThrow("Your crontab's skillopt-sleep block is damaged: its start line has no end line");
    expect(damaged.calls()).toEqual(['-l']);
  });
});

describe('sleep schedule --systemd', () => {
  const unitDirectory = () => path.join(home, '.config', 'systemd', 'user');

  test('writes a service and a timer with the same absolute command, touches no crontab, and unschedule removes them', async () => {
    const result = await schedule({ systemd: true, hour: 4, minute: 5, night: { backend: 'codex', set: ['judge.note=costs $5 or 10%'] } });
    const name = `skillopt-sleep-${projectPathHash(project)}`;
    const serviceFile = path.join(unitDirectory(), `${name}.service`);
    const timerFile = path.join(unitDirectory(), `${name}.timer`);
    expect(result.systemd).toEqual({
      serviceFile,
      timerFile,
      timer: `${name}.timer`,
      enableCommand: `systemctl --user daemon-reload && systemctl --user enable --now ${name}.timer`,
      logCommand: `journalctl --user -u ${name}.service`,
    });
    const service = readFileSync(serviceFile, 'utf8');
    const environmentFile = path.join(stateDirectory(), 'sleep.env');
    expect(service).toContain('[Service]\nType=oneshot\n');
    expect(service).toContain(`WorkingDirectory=${project}\n`);
    expect(service).toContain(`EnvironmentFile=-${environmentFile}\n`);
    expect(service).toContain(
      `ExecStart="${process.execPath}" "${installedSleepBin()}" "run" "--project=${project}" "--state-dir=${stateDirectory()}" "--backend=codex" "--set=judge.note=costs $$5 or 10%%"\n`,
    );
    const timer = readFileSync(timerFile, 'utf8');
    expect(timer).toContain('[Timer]\nOnCalendar=*-*-* 04:05:00\nPersistent=true\n');
    expect(timer).toContain(`Unit=${name}.service\n`);
    expect(timer).toContain('[Install]\nWantedBy=timers.target\n');
    for (const text of [service, timer]) expect(text).not.toMatch(/sk-|API_KEY/);
    expect(crontab.calls()).toEqual([]);
    expect(scheduleSummary(result)).toContain(`Start the timer (schedule runs no systemctl): ${result.systemd?.enableCommand}`);

    const rescheduled = await schedule({ systemd: true });
    expect(rescheduled.replaced).toBe(true);
    expect(readFileSync(timerFile, 'utf8')).toContain('OnCalendar=*-*-* 03:17:00\n');

    const removed = await unschedule({ systemd: true });
    expect(removed).toEqual({
      scheduler: 'systemd',
      project,
      removed: [serviceFile, timerFile],
      disableCommand: `systemctl --user disable --now ${name}.timer; systemctl --user daemon-reload`,
    });
    expect(existsSync(serviceFile) || existsSync(timerFile)).toBe(false);
    expect((await unschedule({ systemd: true })).removed).toEqual([]);
  });

  test('$XDG_CONFIG_HOME is honoured; --all removes only the files schedule wrote', async () => {
    environment = { ...environment, XDG_CONFIG_HOME: path.join(home, 'config') };
    const other = path.join(home, 'work', 'other');
    mkdirSync(other);
    await schedule({ systemd: true });
    await schedule({ systemd: true, project: other });
    const folder = path.join(home, 'config', 'systemd', 'user');
    const foreign = path.join(folder, 'skillopt-sleep-mine.service');
    writeFileSync(foreign, '[Service]\nExecStart=/usr/bin/true\n');
    const removed = await unschedule({ project: undefined, all: true, systemd: true });
    expect(removed.removed).toHaveLength(4);
    expect(existsSync(foreign)).toBe(true);
    await expect(schedule({ systemd: true, project: other })).resolves.toMatchObject({ replaced: false });
    writeFileSync(path.join(folder, `skillopt-sleep-${projectPathHash(project)}.timer`), '[Timer]\n');
    await expect(schedule({ systemd: true })).rejects.toThrow('was not written by skillopt-sleep schedule');
  });
});
