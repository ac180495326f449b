import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSkillopt } from './helpers/cli-process';
import { createCrontabStandIn } from './helpers/crontab-stand-in';

// `skillopt sleep schedule | unschedule` as a user runs them, against a stand-in crontab first on PATH.

const OPENAI_KEY = 'sk-proj-planted-openai-key-0123456789abcdef';

describe('skillopt sleep schedule and unschedule', () => {
  let home: string;
  let project: string;
  let crontab: ReturnType<typeof createCrontabStandIn>;
  let environment: NodeJS.ProcessEnv;
  const skillopt = (args: string[]) => startSkillopt(args, project, environment).ended;
  const resultOf = (stdout: string) => JSON.parse(stdout.trim().split('\n').at(-1) as string);

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-schedule-'));
    project = path.join(home, 'app');
    mkdirSync(project);
    crontab = createCrontabStandIn(path.join(home, 'cron'));
    environment = {
      HOME: home,
      SKILLOPT_SLEEP_HOME: path.join(home, 'sleep-state'),
      XDG_CONFIG_HOME: '',
      PATH: `${crontab.binDirectory}${path.delimiter}${process.env.PATH}`,
      OPENAI_API_KEY: OPENAI_KEY,
    };
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test("a crontab line with the sleep bin's absolute path, replaced when scheduled again, removed with the user's lines kept", async () => {
    const own = 'MAILTO=me@example.com\n0 * * * * /usr/local/bin/backup\n';
    crontab.set(own);
    const first = await skillopt(['sleep', 'schedule', '--backend', 'openai', '--model', 'gpt-5-mini']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);
    expect(first.stdout).toContain(`Scheduled a night for ${project} every day at 03:17 in your crontab (a new line; 1 project(s) scheduled):`);
    expect(first.stdout).toContain(`To remove it: skillopt sleep unschedule --project '${project}'`);
    const text = crontab.text() as string;
    expect(text.startsWith(own)).toBe(true);
    const bin = /'(\/[^']+\/bin\/skillopt-sleep\.js)' 'run'/.exec(text)?.[1] as string;
    expect(existsSync(bin)).toBe(true);
    expect(text).toContain(`'${process.execPath}' '${bin}' 'run' '--project=${project}'`);
    expect(text).toContain("'--backend=openai' '--model=gpt-5-mini'");
    expect(text).not.toContain(OPENAI_KEY);

    const again = await skillopt(['sleep', 'schedule', '--hour', '4', '--minute', '5', '--json']);
    expect(again.code).toBe(0);
    const result = resultOf(again.stdout);
    expect(result).toMatchObject({ type: 'result', scheduler: 'cron', project, hour: 4, minute: 5, replaced: true, cron: { scheduledProjects: 1 } });
    expect((crontab.text() as string).match(/# skillopt-sleep project /g)).toHaveLength(1);

    const removed = await skillopt(['sleep', 'unschedule', '--json']);
    expect(removed.code).toBe(0);
    expect(resultOf(removed.stdout)).toMatchObject({ type: 'result', removed: [result.cron.line], remainingProjects: 0 });
    expect(crontab.text()).toBe(own);
    const nothing = await skillopt(['sleep', 'unschedule']);
    expect(nothing).toMatchObject({ code: 0, stdout: `Nothing to remove: no night of ${project} is scheduled in your crontab.\n` });
  });

  test('--systemd writes the unit files and prints how to start them; unschedule --systemd removes them', async () => {
    const scheduled = await skillopt(['sleep', 'schedule', '--systemd', '--hour', '2', '--minute', '30', '--auto-adopt']);
    expect(scheduled.code).toBe(0);
    const units = path.join(home, '.config', 'systemd', 'user');
    const timer = /systemctl --user enable --now (skillopt-sleep-[0-9a-f]{12}\.timer)/.exec(scheduled.stdout)?.[1] as string;
    expect(scheduled.stdout).toContain(
      `Start the timer (schedule runs no systemctl): systemctl --user daemon-reload && systemctl --user enable --now ${timer}`,
    );
    expect(readFileSync(path.join(units, timer), 'utf8')).toContain('OnCalendar=*-*-* 02:30:00\nPersistent=true\n');
    const service = readFileSync(path.join(units, timer.replace(/\.timer$/, '.service')), 'utf8');
    expect(service).toMatch(/\nExecStart="[^"]+" "[^"]+\/bin\/skillopt-sleep\.js" "run" "--project=[^"]+" "--state-dir=[^"]+" "--auto-adopt"\n/);
    expect(service).toContain(`EnvironmentFile=-${path.join(home, 'sleep-state', 'sleep.env')}\n`);
    expect(crontab.text()).toBeUndefined();

    const removed = await skillopt(['sleep', 'unschedule', '--systemd']);
    expect(removed.code).toBe(0);
    expect(removed.stdout).toContain('Removed 2 unit file(s):');
    expect(removed.stdout).toContain(`systemctl --user disable --now ${timer}; systemctl --user daemon-reload`);
    expect(existsSync(path.join(units, timer))).toBe(false);
  });

  test('exit codes: 2 for a bad hour or a secret in --set, 1 without crontab (the line to add by hand on stderr)', async () => {
    const badHour = await skillopt(['sleep', 'schedule', '--hour', '24']);
    expect(badHour.code).toBe(2);
    const secret = await skillopt(['sleep', 'schedule', '--set', 'backends.openai.api_key=abc123', '--json']);
    expect(secret.code).toBe(2);
    expect(resultOf(secret.stdout)).toMatchObject({ type: 'error', error: { category: 'user', exitCode: 2 } });
    expect(secret.stderr).toContain(`Put it in ${path.join(home, 'sleep-state', 'sleep.env')} instead`);
    expect(secret.stderr).not.toContain('abc123');
    expect(crontab.text()).toBeUndefined();

    environment = { ...environment, PATH: path.join(home, 'no-programs-here') };
    const missing = await skillopt(['sleep', 'schedule']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('There is no `crontab` program on PATH, so nothing was scheduled.');
    expect(missing.stderr).toMatch(/\n17 3 \* \* \* mkdir -p .+ # skillopt-sleep project [0-9a-f]{12}\n$/);
  });
});
