import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startSkillopt } from './helpers/cli-process';

describe('skillopt sleep dry-run', () => {
  let home: string;
  const skillopt = (args: string[]) => startSkillopt(args, home, { HOME: home, SKILLOPT_SLEEP_HOME: path.join(home, 'sleep-state') }).ended;

  beforeEach(() => {
    home = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-dry-run-'));
  });
  afterEach(() => rmSync(home, { recursive: true, force: true }));

  test('--persona researcher runs the whole night on the simulated model and prints its report', async () => {
    const { code, stdout, stderr } = await skillopt(['sleep', 'dry-run', '--persona', 'researcher']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(stdout).toContain('# SkillOpt Sleep night (dry run): the gate accepted new rules');
    expect(stdout).toContain('| validation (mixed gate score) | 30.6% (hard 0.0%, soft 61.1%) | 100.0% (hard 100.0%, soft 100.0%) |');
    expect(stdout).toMatch(/Report written to sleep-state\/dry-runs\/\d{8}-\d{6}-\w+\/report\.md/);
  });

  test('--json ends with one result line; a project config for training is not a night config', async () => {
    // A project config that would make any other command train SearchQA for four epochs.
    writeFileSync(path.join(home, 'skillopt.config.yaml'), 'env:\n  name: searchqa\ntrain:\n  num_epochs: 4\n');
    const { code, stdout } = await skillopt(['sleep', 'dry-run', '--persona', 'programmer', '--set', 'evaluation.gate_strategy=paired', '--json']);
    expect(code).toBe(0);
    const lines = stdout.trim().split('\n');
    const result = JSON.parse(lines[lines.length - 1] as string);
    expect(result).toMatchObject({ type: 'result', outcome: 'accepted', gateDecisions: [{ strategy: 'paired', accepted: true }] });
    const report = JSON.parse(readFileSync(path.join(result.runDirectory, '..', 'report.json'), 'utf8'));
    expect(report.outcome).toBe('accepted');
  });

  test('--backend handoff: the requests wait in dry-runs/handoff of the state folder, exit 3, and the same command again uses the answers', async () => {
    const command = ['sleep', 'dry-run', '--persona', 'researcher', '--backend', 'handoff'];
    const { code, stdout, stderr } = await skillopt(command);
    expect(code).toBe(3);
    expect(stdout).toBe('');
    const folder = path.join(home, 'sleep-state', 'dry-runs', 'handoff');
    expect(stderr).toContain(`Error: 12 requests wait for an answer in ${folder} (listed in its index.json).`);
    expect(stderr).toContain('Answer each request in its answer file, then run the same command again (`skillopt sleep dry-run` with the same flags)');
    expect(stderr).not.toContain('--resume');
    const pending = (): Array<{ id: string; answerFile: string; answerFormat: { type: string } }> =>
      JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')).pending;
    const first = pending();
    expect(first).toHaveLength(12);
    // Nothing lands in the folder the command ran in.
    expect(readdirSync(home)).toEqual(['sleep-state']);

    // One replay answered: the same command again (a new night in a new folder) takes that answer and asks the rest again.
    const answered = first.find((entry) => entry.answerFormat.type === 'text')!;
    mkdirSync(path.join(folder, 'answers'), { recursive: true });
    writeFileSync(path.join(folder, answered.answerFile), 'BERT is arXiv:1810.04805.\n');
    const json = await skillopt([...command, '--json']);
    expect(json.code).toBe(3);
    expect(JSON.parse(json.stdout)).toMatchObject({ type: 'error', error: { code: 'answer-pending', exitCode: 3, details: { directory: folder } } });
    const ids = pending().map((entry) => entry.id);
    expect(ids).not.toContain(answered.id);
    expect(ids).toEqual(expect.arrayContaining(first.filter((entry) => entry !== answered).map((entry) => entry.id)));
  });

  test('a task file whose held-out tasks are training tasks is refused with its reason (exit 1)', async () => {
    const task = { id: 'same', intent: 'What is the arXiv id of BERT?', referenceKind: 'exact', reference: 'arXiv:1810.04805' };
    writeFileSync(
      path.join(home, 'tasks.json'),
      JSON.stringify({
        format: 'skillopt.sleep.tasks.v1',
        tasks: [
          { ...task, split: 'train' },
          { ...task, split: 'val' },
        ],
      }),
    );
    writeFileSync(path.join(home, 'SKILL.md'), '# A skill\n');
    const { code, stdout } = await skillopt(['sleep', 'dry-run', '--tasks', 'tasks.json', '--skill', 'SKILL.md']);
    expect(code).toBe(1);
    expect(stdout).toContain('held-out tasks are also training tasks: same');
    expect(stdout).toContain('Nothing would be staged.');
  });
});
