import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readTaskFile, TASK_FILE_FORMAT } from '@skillopt/sleep';
import { runOpenClawCommandLine } from '../src/command-line';
import { judgeRubricText } from '../src/openclaw-task-conversion';
import { OPENCLAW_TASK_FILES, PACKAGE_ROOT, PLUGIN_BIN, runNode, SLEEP_BIN } from './openclaw-fixtures';

/**
 * The original's OpenClaw task files converted into Sleep's reviewed task files, each task's rubric
 * given to the judge with its reference, and a night replaying and judging every one of them on the
 * simulated model — the rubric tasks graded by the simulated LLM judge.
 */

interface OpenClawTask {
  id: string;
  reference: string;
  rubric: string;
  project: string;
  split: string;
}

let root: string;
let project: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'plugin-openclaw-'));
  project = path.join(root, 'workspace');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

async function convert(args: string[]): Promise<{ code: number; output: string; errors: string }> {
  let output = '';
  let errors = '';
  const code = await runOpenClawCommandLine(PACKAGE_ROOT, ['convert', ...args], {
    write: (text) => {
      output += text;
    },
    writeError: (text) => {
      errors += text;
    },
    environment: { HOME: root },
    workingDirectory: root,
  });
  return { code, output, errors };
}

/** Every rollout line of a night's run: which task was replayed and how its answer was judged. */
function judgedRollouts(runDirectory: string): Array<{ itemId: string; judgedBy: string }> {
  const folder = path.join(runDirectory, 'rollouts');
  return readdirSync(folder).flatMap((file) =>
    readFileSync(path.join(folder, file), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { itemId: string; result: { details: { judgedBy: string } } })
      .map((rollout) => ({ itemId: rollout.itemId, judgedBy: rollout.result.details.judgedBy })),
  );
}

describe.each(OPENCLAW_TASK_FILES)('the $category tasks', ({ category, file, tasks: count }) => {
  const original = JSON.parse(readFileSync(file, 'utf8')) as OpenClawTask[];

  it('become a reviewed task file of the project whose rubric tasks are judged by rubric and reference', async () => {
    const tasksFile = path.join(root, `${category}.tasks.json`);
    const { code, output, errors } = await convert([file, '--project', project, '--out', tasksFile, '--json']);
    expect({ code, errors }).toEqual({ code: 0, errors: '' });
    expect(JSON.parse(output)).toMatchObject({ type: 'result', tasksFile, project, tasks: count, rubricTasks: count, warnings: [] });
    expect(JSON.parse(readFileSync(tasksFile, 'utf8')).format).toBe(TASK_FILE_FORMAT);

    const { file: converted, warnings } = await readTaskFile(tasksFile);
    expect(warnings).toEqual([]);
    expect(converted).toMatchObject({ project, source: 'openclaw', sessionCount: 0, reviewed: true });
    expect(converted.tasks).toHaveLength(original.length);
    expect(original).toHaveLength(count);
    original.forEach((task, index) => {
      const mine = converted.tasks[index];
      expect(mine).toMatchObject({ id: task.id, project, referenceKind: 'rubric', split: task.split, origin: 'real' });
      expect(mine?.judge).toBeUndefined();
      expect(mine?.tags).toContain(task.project);
      // The judge reads one text: the rubric, then the answer that meets it — both kept whole.
      expect(mine?.reference).toBe(judgeRubricText(task.rubric, task.reference));
      expect(mine?.reference.startsWith(task.rubric)).toBe(true);
      expect(mine?.reference.endsWith(task.reference)).toBe(true);
    });
  });

  it('replay and judge every task in a dry-run night on the simulated model', async () => {
    const tasksFile = path.join(root, `${category}.tasks.json`);
    expect((await convert([file, '--project', project, '--out', tasksFile])).code).toBe(0);
    const skill = path.join(root, 'SKILL.md');
    writeFileSync(skill, `---\nname: ${category}-agent\ndescription: Runs the ${category} jobs.\n---\n\n# ${category}\n\nAnswer in the team's format.\n`);

    const night = await runNode(SLEEP_BIN, ['dry-run', '--tasks', tasksFile, '--skill', skill, '--out', path.join(root, 'night'), '--json'], {
      cwd: root,
      environment: { HOME: root },
    });
    // Exit 0: the night completed, whether or not its gate accepted a rule.
    expect({ code: night.code, stderr: night.stderr }).toEqual({ code: 0, stderr: '' });
    const report = JSON.parse(night.stdout);
    expect(['accepted', 'rejected']).toContain(report.outcome);
    expect(report).toMatchObject({
      type: 'result',
      dryRun: true,
      tasks: { total: count, replayed: count, unjudgeable: [], excluded: [], byReferenceKind: { rubric: count } },
    });
    expect(report.refusal).toBeUndefined();
    expect(report.usage.byPurpose.judge).toBeGreaterThanOrEqual(count);

    const rollouts = judgedRollouts(report.runDirectory);
    expect(new Set(rollouts.map((rollout) => rollout.itemId))).toEqual(new Set(original.map((task) => task.id)));
    expect(new Set(rollouts.map((rollout) => rollout.judgedBy))).toEqual(new Set(['rubric-llm']));
  });
});

describe('skillopt-plugin-openclaw convert', () => {
  function writeTasks(name: string, tasks: unknown): string {
    const file = path.join(root, name);
    writeFileSync(file, JSON.stringify(tasks));
    return file;
  }

  it('names its output after the category, in the current folder, for the current folder by default', async () => {
    const [devops] = OPENCLAW_TASK_FILES;
    const copy = writeTasks('devops-tasks.json', JSON.parse(readFileSync(devops.file, 'utf8')));
    const run = await runNode(PLUGIN_BIN, ['convert', copy], { cwd: root, environment: { HOME: root } });
    expect(run).toMatchObject({ code: 0, stderr: '' });
    expect(run.stdout).toContain(`Converted 5 tasks of ${copy} (5 judged by their rubric; 2 train, 3 validation, 0 test).`);
    const { file } = await readTaskFile(path.join(root, 'devops.tasks.json'));
    expect(file.project).toBe(root);
  });

  it('reads a missing reference_kind as rubric, as the OpenClaw wrapper did, and says when a rubric goes unused', async () => {
    const input = writeTasks('mixed-tasks.json', [
      { id: 'a', intent: 'Report the backup', reference: 'Backup complete.', rubric: 'Score 1.0 if it says the backup completed.', split: 'train' },
      { id: 'b', intent: 'Name the port', reference: '8080', rubric: 'Score 1.0 if 8080.', reference_kind: 'exact', split: 'val' },
    ]);
    const { code, errors } = await convert([input, '--out', 'mixed.tasks.json']);
    expect(code).toBe(0);
    expect(errors).toBe('Warning: task b: its rubric is not used: a task whose reference_kind is "exact" is not judged by a rubric\n');
    const { file } = await readTaskFile(path.join(root, 'mixed.tasks.json'));
    expect(file.tasks.map((task) => [task.referenceKind, task.reference])).toEqual([
      ['rubric', judgeRubricText('Score 1.0 if it says the backup completed.', 'Backup complete.')],
      ['exact', '8080'],
    ]);
  });

  it('refuses what is not an OpenClaw task file, naming the problem, and writes nothing', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ tasks: [] }, /an OpenClaw task file is a JSON array of tasks/],
      [{ format: 'skillopt.sleep.tasks.v1', tasks: [] }, /already a task file \(skillopt.sleep.tasks.v1\); pass it to skillopt-sleep's --tasks as it is/],
      [[], /it holds no tasks/],
      [[{ id: 'a', intent: 'x', rubric: 3 }], /task a: rubric must be a string/],
      [
        [
          { id: 'a', intent: 'first' },
          { id: 'a', intent: 'second' },
        ],
        /task ids must be unique, and a repeat/,
      ],
      [[{ id: 'a', intent: 'x', split: 'holdout-2' }], /task a: split: /],
    ];
    for (const [content, message] of cases) {
      const input = writeTasks('bad-tasks.json', content);
      await expect(convert([input, '--out', 'bad.tasks.json'])).rejects.toThrow(message);
    }
    expect(readdirSync(root)).toEqual(['bad-tasks.json']);
    await expect(convert([])).rejects.toThrow('convert takes one OpenClaw task file, got 0');
    await expect(convert([path.join(root, 'bad-tasks.json'), '--out', 'bad-tasks.json'])).rejects.toThrow('the conversion never overwrites it');
  });

  it('exits 2 with the message for a problem the user can fix, and suggests the nearest command', async () => {
    const missing = await runNode(PLUGIN_BIN, ['convert', 'nowhere-tasks.json'], { cwd: root, environment: { HOME: root } });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^skillopt-plugin-openclaw: Cannot convert .*nowhere-tasks.json: ENOENT/);
    const misspelt = await runNode(PLUGIN_BIN, ['conver'], { cwd: root, environment: { HOME: root } });
    expect(misspelt).toMatchObject({ code: 2, stderr: expect.stringContaining('unknown command "conver"; did you mean "convert"?') });
    const help = await runNode(PLUGIN_BIN, ['--help'], { cwd: root, environment: { HOME: root } });
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('skillopt-plugin-openclaw convert <OpenClaw tasks.json> [--project <folder>] [--out <file>] [--json]');
    expect(help.stdout).toContain('skillopt-plugin-openclaw install [--project <folder>]');
  });
});
