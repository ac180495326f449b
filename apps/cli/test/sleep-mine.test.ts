import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { CLI_TRANSCRIPTS } from '../../../testdata/paths';
import { startSkillopt } from './helpers/cli-process';

const CLAUDE_SESSIONS = path.join(CLI_TRANSCRIPTS, 'claude', 'projects', '-home-user-project');
const PROJECT = '/home/user/project';

describe('skillopt sleep mine', () => {
  let home: string;
  const skillopt = (args: string[]) =>
    startSkillopt(args, home, { HOME: home, CLAUDE_CONFIG_DIR: '', SKILLOPT_SLEEP_HOME: path.join(home, 'sleep-state') }).ended;
  /** The project's Claude Code sessions of all time, mined with these flags too. */
  const mineAllHistory = (...flags: string[]) => skillopt(['sleep', 'mine', '--project', PROJECT, '--source', 'claude-code', '--lookback', '0', ...flags]);

  beforeEach(() => {
    // A home of its own, holding the sessions the real Claude Code CLI wrote.
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-mine-'));
    const sessions = path.join(home, '.claude', 'projects', '-home-user-project');
    mkdirSync(sessions, { recursive: true });
    for (const file of readdirSync(CLAUDE_SESSIONS)) cpSync(path.join(CLAUDE_SESSIONS, file), path.join(sessions, file));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('mines the real Claude Code sessions of one project into an unreviewed task file, and says how to pass it back', async () => {
    const { code, stdout, stderr } = await mineAllHistory('--out', 'tasks.json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const file = JSON.parse(readFileSync(path.join(home, 'tasks.json'), 'utf8'));
    expect(file).toMatchObject({ format: 'skillopt.sleep.tasks.v1', project: PROJECT, source: 'claude-code', reviewed: false });
    expect(file.tasks.length).toBeGreaterThan(0);
    for (const task of file.tasks) expect(task).toMatchObject({ project: PROJECT, referenceKind: 'none', split: expect.stringMatching(/^(train|val|test)$/) });
    expect(stdout).toContain(`Mined ${file.tasks.length} task`);
    expect(stdout).toContain(`skillopt sleep dry-run --tasks ${path.join(home, 'tasks.json')} --skill <your SKILL.md>`);
  });

  test('--json prints one result line; by default the file is kept outside the project, in the state folder', async () => {
    const { code, stdout } = await mineAllHistory('--json');
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1] as string);
    expect(result).toMatchObject({ type: 'result', miner: 'heuristic', project: PROJECT });
    expect(result.tasksFile.startsWith(path.join(home, 'sleep-state', 'projects'))).toBe(true);
    expect(existsSync(result.tasksFile)).toBe(true);
  });

  test('--miner llm on the simulated model: tasks a night can judge, the calls in a ledger, SIMULATED said', async () => {
    const { code, stdout, stderr } = await mineAllHistory('--miner', 'llm', '--set', 'model.optimizer_backend=sim', '--out', 'tasks.json');
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const file = JSON.parse(readFileSync(path.join(home, 'tasks.json'), 'utf8'));
    expect(file.tasks.length).toBeGreaterThan(0);
    for (const task of file.tasks) expect(task.referenceKind).toMatch(/^(rubric|rule)$/);
    expect(stdout).toContain('mined by the model (SIMULATED: the simulated model, not a reading of your sessions)');
    const ledgerFile = /ledger (\S+\.ledger\.jsonl)/.exec(stdout)?.[1] as string;
    expect(ledgerFile.startsWith(path.join(home, 'sleep-state', 'projects'))).toBe(true);
    expect(readFileSync(ledgerFile, 'utf8')).toContain('"purpose":"mine"');
  });

  test('a misspelt miner suggests the nearest', async () => {
    const { code, stderr } = await skillopt(['sleep', 'mine', '--miner', 'heuristc']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('did you mean "heuristic"?');
  });

  test('a fraction out of range is refused with the flag named', async () => {
    const { code, stderr } = await skillopt(['sleep', 'mine', '--val-fraction', '2']);
    expect(code).not.toBe(0);
    expect(stderr).toContain('--val-fraction must be a number from 0 up to (not including) 1, got 2');
  });
});
