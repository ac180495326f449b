import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPackageResolver } from '@skillopt/core';
import { type MineRunResult, mineExitCode } from '../src/command-line/mine-run.js';
import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { dryRunNight } from '../src/night/dry-run-night.js';
import { personaFixture } from '../src/persona-fixtures.js';

const packageDirectory = path.resolve(__dirname, '..');

let workDirectory: string;
let written: string[];
let errors: string[];
beforeEach(async () => {
  workDirectory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-sleep-bin-'));
  written = [];
  errors = [];
});
afterEach(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

function run(...argv: string[]) {
  return runSleepCommandLine(argv, {
    write: (text) => written.push(text),
    writeError: (text) => errors.push(text),
    workingDirectory: workDirectory,
    fallbackDirectories: [packageDirectory],
  });
}

describe('skillopt-sleep, the command line @skillopt/sleep ships for plugins', () => {
  test('dry-run --persona researcher prints the night report and writes it beside the run', async () => {
    const code = await run('dry-run', '--persona', 'researcher', '--out', 'night');
    expect(code).toBe(0);
    const output = written.join('');
    expect(output).toContain('# SkillOpt Sleep night (dry run): the gate accepted new rules');
    expect(output).toContain('| validation (mixed gate score) | 30.6% (hard 0.0%, soft 61.1%) | 100.0% (hard 100.0%, soft 100.0%) |');
    expect(await readFile(path.join(workDirectory, 'night', 'report.md'), 'utf8')).toBe(output.slice(0, output.indexOf('\nReport written to')));
    const report = JSON.parse(await readFile(path.join(workDirectory, 'night', 'report.json'), 'utf8'));
    expect(report).toMatchObject({ format: 'skillopt.sleep.night.v1', dryRun: true, outcome: 'accepted' });
  });

  test('--json prints one result line', async () => {
    expect(await run('dry-run', '--persona', 'programmer', '--out', 'night', '--json')).toBe(0);
    expect(written).toHaveLength(1);
    expect(JSON.parse(written[0] as string)).toMatchObject({ type: 'result', outcome: 'accepted', validation: { after: { score: 1 } } });
  });

  test('a night that cannot be validated says why and exits 1', async () => {
    const tasks = ['fix the login test', 'add a dark mode'].map((intent, index) => ({ id: `t${index}`, intent, split: index === 0 ? 'train' : 'val' }));
    await writeFile(path.join(workDirectory, 'tasks.json'), JSON.stringify({ format: 'skillopt.sleep.tasks.v1', tasks }));
    await writeFile(path.join(workDirectory, 'SKILL.md'), '# A skill\n');
    expect(await run('dry-run', '--tasks', 'tasks.json', '--skill', 'SKILL.md', '--out', 'night')).toBe(1);
    expect(written.join('')).toContain('The night was not run: none of the 2 tasks can be judged');
  });

  test('a misspelt command or persona suggests the nearest, a missing flag names itself', async () => {
    await expect(run('dryrun')).rejects.toThrow('unknown command "dryrun"; did you mean "dry-run"?');
    await expect(run('dry-run', '--persona', 'researchr')).rejects.toThrow('did you mean "researcher"?');
    await expect(run('dry-run', '--skill', 'SKILL.md')).rejects.toThrow('dry-run needs --tasks <task file>');
    await expect(run('dry-run', '--persona', 'researcher', '--tasks', 'x.json')).rejects.toThrow('--persona brings its own tasks');
    await expect(run('dry-run', '--task', 'x.json')).rejects.toThrow("Unknown option '--task'");
  });

  test('--help prints the usage with its examples', async () => {
    expect(await run('--help')).toBe(0);
    expect(written.join('')).toContain('skillopt-sleep dry-run --persona researcher');
  });
});

describe('skillopt-sleep run, status and adopt, the same as skillopt sleep run, status and adopt', () => {
  test('a persona night is staged, listed, adopted and undone; exit codes say what happened', async () => {
    const state = ['--state-dir', 'state'];
    expect(await run('run', '--persona', 'programmer', ...state)).toBe(0);
    expect(written.join('')).toContain('# SkillOpt Sleep night 1: the gate accepted new rules');
    written = [];
    expect(await run('status', ...state, '--json')).toBe(0);
    expect(JSON.parse(written[0] as string)).toMatchObject({ type: 'result', nights: 1, proposals: [{ night: 1, status: 'pending' }] });
    written = [];
    expect(await run('adopt', ...state)).toBe(0);
    const skill = path.join(workDirectory, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');
    expect(written.join('')).toContain(`Created ${skill}.`);
    expect(await readFile(skill, 'utf8')).toContain('- Start a commit subject with a bare verb such as Add or Fix');
    await expect(run('adopt', ...state)).rejects.toMatchObject({ code: 'nothing-to-adopt' });
    expect(await run('adopt', '--undo', ...state)).toBe(0);
    await expect(readFile(skill, 'utf8')).rejects.toThrow('ENOENT');
    expect(await run('run', '--persona', 'programmer', ...state, '--set', 'budget.total.max_calls=3')).toBe(1);
    await expect(run('run', '--persona', 'programmer', ...state, '--backend', 'smi')).rejects.toThrow(/"sim"/);
  });
});

describe('skillopt-sleep harvest, the same harvest as skillopt sleep harvest', () => {
  test('reads a Claude Code home given by flag, printing per source, and streams records under --json', async () => {
    const folder = path.join(workDirectory, 'claude', 'projects', '-work-app');
    await mkdir(folder, { recursive: true });
    const common = { cwd: '/work/app', sessionId: 'c0ffee00-0000-4000-8000-000000000009', timestamp: '2026-11-02T10:00:00.000Z' };
    const lines = [
      { type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: 'fix the flaky login test' }, ...common },
      { type: 'assistant', uuid: 'a', parentUuid: 'u', message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] }, ...common },
    ];
    await writeFile(path.join(folder, `${common.sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    const flags = ['--source', 'claude-code', '--all-projects', '--lookback', '0', '--claude-home', 'claude', '--state-dir', 'state'];
    expect(await run('harvest', ...flags)).toBe(0);
    expect(written.join('')).toContain('1 sessions (1 distinct tasks), all history');
    expect(written.join('')).toContain('  claude-code: 1 sessions, 1 tasks, 1 files read');
    written = [];
    expect(await run('harvest', ...flags, '--json')).toBe(0);
    const records = written.map((line) => JSON.parse(line));
    expect(records.map((record) => record.type)).toEqual(['session', 'result']);
    expect(records[0]).toMatchObject({ source: 'claude-code', task: 'fix the flaky login test' });
  });

  test('a misspelt source names the nearest one', async () => {
    await expect(run('harvest', '--source', 'claude-cod')).rejects.toThrow(/claude-code/);
  });
});

/** Claude Code sessions of one project, one per request, under `<workDirectory>/claude`. */
async function claudeSessions(project: string, requests: readonly string[]): Promise<void> {
  const folder = path.join(workDirectory, 'claude', 'projects', project.replace(/\//g, '-'));
  await mkdir(folder, { recursive: true });
  for (const [index, request] of requests.entries()) {
    const common = { cwd: project, sessionId: `c0ffee00-0000-4000-8000-00000000001${index}`, timestamp: `2026-11-0${index + 1}T10:00:00.000Z` };
    const lines = [
      { type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: request }, ...common },
      { type: 'assistant', uuid: 'a', parentUuid: 'u', message: { role: 'assistant', content: [{ type: 'text', text: 'Here it is.' }] }, ...common },
    ];
    await writeFile(path.join(folder, `${common.sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
}

describe('skillopt-sleep mine: sessions into a task file to review and pass back', () => {
  const requests = ['What is the arXiv id of the GAN paper?', 'What is the arXiv id of the BERT paper?', 'What is the arXiv id of the Adam paper?'];
  const flags = ['--source', 'claude-code', '--lookback', '0', '--claude-home', 'claude', '--state-dir', 'state'];

  test('writes the tasks of one project, unreviewed and without references, and says how to review them', async () => {
    await claudeSessions('/work/papers', requests);
    await claudeSessions('/work/other', ['What is the arXiv id of the ResNet paper?']);
    expect(await run('mine', '--project', '/work/papers', ...flags, '--out', 'tasks.json')).toBe(0);
    const output = written.join('');
    expect(output).toContain('Mined 3 tasks from 3 sessions of /work/papers, all history (--lookback 0).');
    expect(output).toContain('3 tasks have nothing to judge a replay by yet');
    expect(output).toContain(`skillopt-sleep dry-run --tasks ${path.join(workDirectory, 'tasks.json')} --skill <your SKILL.md>`);
    const file = JSON.parse(await readFile(path.join(workDirectory, 'tasks.json'), 'utf8'));
    expect(file).toMatchObject({ format: 'skillopt.sleep.tasks.v1', project: '/work/papers', source: 'claude-code', sessionCount: 3, reviewed: false });
    expect(file.tasks.map((task: { intent: string }) => task.intent).sort()).toEqual([...requests].sort());
    expect(new Set(file.tasks.map((task: { referenceKind: string }) => task.referenceKind))).toEqual(new Set(['none']));
  });

  test("by default the file goes under the project's folder of the state directory, outside the project; --json prints one result", async () => {
    await claudeSessions('/work/papers', requests);
    expect(await run('mine', '--project', '/work/papers', ...flags, '--json')).toBe(0);
    expect(written).toHaveLength(1);
    const result = JSON.parse(written[0] as string);
    expect(result).toMatchObject({ type: 'result', tasks: 3, sessions: 3, miner: 'heuristic', needReference: 3, project: '/work/papers' });
    expect(path.relative(path.join(workDirectory, 'state', 'projects'), result.tasksFile).startsWith('papers-')).toBe(true);
    expect(result.tasksFile).toMatch(/mined\/\d{8}-\d{6}-[0-9a-f]{6}\.tasks\.json$/);
  });

  test('a reviewed file goes back to dry-run: the tasks given references are replayed and judged', async () => {
    await claudeSessions('/work/papers', requests);
    expect(await run('mine', '--project', '/work/papers', ...flags, '--out', 'tasks.json', '--val-fraction', '0.5')).toBe(0);
    const file = JSON.parse(await readFile(path.join(workDirectory, 'tasks.json'), 'utf8'));
    const answers: Record<string, string> = { GAN: 'arXiv:1406.2661', BERT: 'arXiv:1810.04805', Adam: 'arXiv:1412.6980' };
    for (const task of file.tasks) {
      const paper = Object.keys(answers).find((name) => task.intent.includes(name)) as string;
      Object.assign(task, { referenceKind: 'exact', reference: answers[paper] });
    }
    file.reviewed = true;
    await writeFile(path.join(workDirectory, 'tasks.json'), JSON.stringify(file));
    await writeFile(path.join(workDirectory, 'SKILL.md'), '# Papers\n\nAnswer briefly.\n');
    written = [];
    await run('dry-run', '--tasks', 'tasks.json', '--skill', 'SKILL.md', '--out', 'night', '--json');
    const report = JSON.parse(written[0] as string);
    expect(report.refusal).toBeUndefined();
    expect(report.tasks).toMatchObject({ total: 3, replayed: 3, unjudgeable: [] });
    expect(report.tasks.bySplit.train + report.tasks.bySplit.val).toBe(3);
  });

  test('with nothing to mine no file is written, and it says so', async () => {
    expect(await run('mine', '--project', '/work/empty', ...flags, '--out', 'tasks.json')).toBe(0);
    expect(written.join('')).toContain('No task file was written: there was nothing to mine (`skillopt-sleep harvest` shows what each source holds).');
    await expect(readFile(path.join(workDirectory, 'tasks.json'), 'utf8')).rejects.toThrow('ENOENT');
  });

  test('--miner llm: the model writes rubrics or checks, its calls in a ledger of their own, and says it was simulated', async () => {
    await claudeSessions('/work/papers', requests);
    expect(await run('mine', '--project', '/work/papers', ...flags, '--miner', 'llm', '--out', 'tasks.json', '--json')).toBe(0);
    const result = JSON.parse(written[0] as string);
    expect(result).toMatchObject({ miner: 'llm', tasks: 3, needReference: 0, minerCalls: { calls: 3, simulated: true, failures: [] } });
    const file = JSON.parse(await readFile(path.join(workDirectory, 'tasks.json'), 'utf8'));
    expect(file.reviewed).toBe(false);
    for (const task of file.tasks) expect(task).toMatchObject({ referenceKind: 'rubric', reference: expect.stringContaining(task.intent) });
    expect(path.relative(path.join(workDirectory, 'state', 'projects'), result.minerCalls.ledgerFile)).toMatch(/^papers-[^/]+\/mined\/.+\.ledger\.jsonl$/);
    const ledger = (await readFile(result.minerCalls.ledgerFile, 'utf8'))
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // Each call is a started line (its purpose) and a finished line.
    expect(ledger.filter((entry) => entry.purpose !== undefined).map((entry) => entry.purpose)).toEqual(['mine', 'mine', 'mine']);
    written = [];
    expect(await run('mine', '--project', '/work/papers', ...flags, '--miner', 'llm', '--out', 'tasks.json')).toBe(0);
    expect(written.join('')).toContain('mined by the model (SIMULATED: the simulated model, not a reading of your sessions): 3 calls');
  });

  test('a misspelt --miner suggests the nearest', async () => {
    await expect(run('mine', '--miner', 'lm')).rejects.toThrow('--miner is heuristic or llm, got "lm"; did you mean "llm"?');
  });

  test('the LLM miner whose every reply was unusable fails the command, a model that found no task does not', () => {
    const result = (failures: { sessionId: string; reason: string }[], miner: 'llm' | 'heuristic') =>
      ({ miner, minerCalls: { ledgerFile: 'l', calls: 2, costUsd: 0, unpricedCalls: 0, simulated: false, failures } }) as unknown as MineRunResult;
    expect(mineExitCode(result([{ sessionId: 's', reason: 'no usable reply after 2 attempts: not JSON' }], 'heuristic'))).toBe(1);
    expect(mineExitCode(result([], 'heuristic'))).toBe(0);
    expect(mineExitCode(result([{ sessionId: 's', reason: 'no usable reply' }], 'llm'))).toBe(0);
  });

  test('bad numbers are refused with the flag named', async () => {
    await expect(run('mine', '--max-tasks', '0')).rejects.toThrow('--max-tasks must be a whole number of at least 1, got 0');
    await expect(run('mine', '--val-fraction', '1.5')).rejects.toThrow('--val-fraction must be a number from 0 up to (not including) 1, got 1.5');
  });
});

describe('dryRunNight', () => {
  test('two dry runs in the same second get a folder each', async () => {
    const previous = process.env.SKILLOPT_SLEEP_HOME;
    process.env.SKILLOPT_SLEEP_HOME = path.join(workDirectory, 'state');
    try {
      const now = new Date('2026-12-03T10:00:00Z');
      const resolver = createPackageResolver({ workingDirectory: workDirectory, fallbackDirectories: [packageDirectory] });
      const options = { ...personaFixture('programmer'), workingDirectory: workDirectory, resolver, now };
      const [first, second] = [await dryRunNight(options), await dryRunNight(options)];
      expect(first.outputDirectory).not.toBe(second.outputDirectory);
      expect(path.basename(first.outputDirectory)).toMatch(/^20261203-100000-/);
      expect([first.report.outcome, second.report.outcome]).toEqual(['accepted', 'accepted']);
    } finally {
      if (previous === undefined) delete process.env.SKILLOPT_SLEEP_HOME;
      else process.env.SKILLOPT_SLEEP_HOME = previous;
    }
  });
});
