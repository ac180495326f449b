import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSkillopt } from './helpers/cli-process';

// `skillopt sleep run | status | adopt` as a user runs them, real processes on the simulated model.

describe('skillopt sleep run, status and adopt', () => {
  let home: string;
  let project: string;
  const stateDirectory = () => path.join(home, 'sleep-state');
  const skillopt = (args: string[]) => startSkillopt(args, project, { HOME: home, SKILLOPT_SLEEP_HOME: stateDirectory() }).ended;
  const managedSkill = () => path.join(project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-run-'));
    project = path.join(home, 'app');
    mkdirSync(project);
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('a night stages, status lists it, adopt writes it, a second adopt finds nothing, undo puts it back', async () => {
    const night = await skillopt(['sleep', 'run', '--persona', 'researcher']);
    expect(night.stderr).toBe('');
    expect(night.code).toBe(0);
    expect(night.stdout).toContain('# SkillOpt Sleep night 1: the gate accepted new rules');
    expect(night.stdout).toMatch(/Staged in `.+\/sleep-state\/projects\/app-[0-9a-f]{12}\/staging\/\d{8}-\d{6}-night-1-skillopt-sleep-learned`/);
    expect(existsSync(managedSkill())).toBe(false);

    const status = await skillopt(['sleep', 'status']);
    expect(status.code).toBe(0);
    expect(status.stdout).toContain('night 1 (');
    expect(status.stdout).toMatch(/Staged for skillopt-sleep-learned \(night 1, pending\)/);

    const adopted = await skillopt(['sleep', 'adopt']);
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toContain(`Created ${managedSkill()}.`);
    expect(readFileSync(managedSkill(), 'utf8')).toContain('- Keep the arXiv: prefix on paper ids; never drop it.');

    const again = await skillopt(['sleep', 'adopt']);
    expect(again.code).toBe(2);
    expect(again.stderr).toContain('is waiting for adoption (1 staged, none pending');

    const undone = await skillopt(['sleep', 'adopt', '--undo', '--json']);
    expect(undone.code).toBe(0);
    expect(JSON.parse(undone.stdout.trim().split('\n').at(-1) as string)).toMatchObject({ type: 'result', adoptions: [{ action: 'undo' }] });
    expect(existsSync(managedSkill())).toBe(false);
  });

  test('adopt is refused (exit 2) when the skill changed after the night read it; the edit is kept', async () => {
    const skill = path.join(project, 'SKILL.md');
    writeFileSync(skill, '# My skill\n\nAnswer briefly.\n');
    expect((await skillopt(['sleep', 'run', '--persona', 'researcher', '--skill', 'SKILL.md', '--json'])).code).toBe(0);
    writeFileSync(skill, '# My skill\n\nAnswer briefly. And politely.\n');
    const refused = await skillopt(['sleep', 'adopt']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`${skill} changed since the night read it`);
    expect(readFileSync(skill, 'utf8')).toBe('# My skill\n\nAnswer briefly. And politely.\n');
  });

  test('a spent budget stops the night: exit 1 with what was spent, nothing staged', async () => {
    const stopped = await skillopt(['sleep', 'run', '--persona', 'researcher', '--set', 'budget.total.max_calls=5']);
    expect(stopped.code).toBe(1);
    expect(stopped.stdout).toContain('# SkillOpt Sleep night 1: a budget stopped it');
    expect(stopped.stdout).toContain('- budget.total.max_calls: 5 of 5 used');
    const status = await skillopt(['sleep', 'status', '--json']);
    const result = JSON.parse(status.stdout.trim().split('\n').at(-1) as string);
    expect(result).toMatchObject({
      nights: 1,
      recentNights: [{ outcome: 'budget-spent', skills: [{ outcome: 'budget-spent', staging: null }], checkpointAdvanced: false }],
      proposals: [],
    });
  });

  test('a night is refused (exit 2) while another process holds the project, naming it', async () => {
    // Another process holds the project's state lock, as a running night does.
    const layout = path.join(stateDirectory(), 'projects');
    const script = `
      const { lockProjectState } = await import(${JSON.stringify(require.resolve('@skillopt/sleep'))});
      await lockProjectState({ stateDirectory: ${JSON.stringify(stateDirectory())}, project: ${JSON.stringify(project)}, purpose: 'sleep night' });
      process.stdout.write('held\\n');
      setInterval(() => {}, 1000);
    `;
    const holder: ChildProcess = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout!.on('data', (chunk: Buffer) => chunk.toString().includes('held') && resolve()));
      const refused = await skillopt(['sleep', 'run', '--persona', 'researcher']);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`pid ${holder.pid}`);
      expect(refused.stderr).toContain('(sleep night)');
      expect(existsSync(layout)).toBe(true);
    } finally {
      holder.kill('SIGKILL');
    }
    // Its lock is stale once it is gone: the next night takes it over.
    await new Promise((resolve) => holder.on('close', resolve));
    expect((await skillopt(['sleep', 'run', '--persona', 'researcher'])).code).toBe(0);
  });
});
