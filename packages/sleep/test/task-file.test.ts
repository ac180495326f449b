import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { parseTaskFileDocument, readTaskFile, TASK_FILE_FORMAT, writeTaskFile } from '../src/tasks/task-file.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

const task: TaskRecord = {
  id: 'task_1',
  project: '/p',
  intent: 'list the open risks',
  contextExcerpt: '',
  system: '',
  attemptedSolution: '',
  outcome: 'success',
  referenceKind: 'rule',
  reference: '',
  judge: { kind: 'rule', checks: [{ op: 'contains', arg: 'Risks' }] },
  tags: ['mined:llm'],
  sourceSessions: ['s1'],
  split: 'val',
  origin: 'real',
  derivedFrom: '',
  skillHint: '',
};

async function fileWith(content: unknown): Promise<string> {
  const path = join(await mkdtemp(join(tmpdir(), 'task-file-')), 'tasks.json');
  await writeFile(path, JSON.stringify(content));
  return path;
}

describe('task files', () => {
  it('round-trips our format', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'task-file-')), 'tasks.json');
    const file = { project: '/p', source: 'codex', sessionCount: 3, targetSkillPath: 'SKILL.md', reviewed: true, tasks: [task] };
    await writeTaskFile(path, file);
    expect(JSON.parse(await readFile(path, 'utf8')).format).toBe(TASK_FILE_FORMAT);
    expect(await readTaskFile(path)).toEqual({ file, warnings: [] });
  });

  it("reads the original's bare arrays, keeping their splits and reporting keys it does not know", async () => {
    // The shape of the original's OpenClaw task fixtures: snake_case keys, an extra `rubric`, `judge: {}`.
    const upstream = (id: string, split: string) => ({
      id,
      reference: 'Backup complete.',
      rubric: 'Score 1.0 if the format matches.',
      project: 'devops-infrastructure-check',
      intent: 'Confirm the nightly backup ran',
      context_excerpt: '',
      attempted_solution: '',
      outcome: 'unknown',
      reference_kind: 'rubric',
      judge: {},
      tags: ['devops-infrastructure-check'],
      source_sessions: [],
      split,
    });
    const { file, warnings } = await readTaskFile(await fileWith([upstream('do-01', 'val'), upstream('do-02', 'train')]));
    expect(file.tasks).toHaveLength(2);
    expect(file.tasks[0]).toMatchObject({ id: 'do-01', referenceKind: 'rubric', split: 'val' });
    expect(file.tasks[0]?.judge).toBeUndefined();
    expect(warnings[0]).toMatch(/task do-01: unknown key "rubric" is ignored/);
  });

  it("reads the original's snake_case file, renaming legacy splits", async () => {
    const path = await fileWith({
      format: 'skillopt_sleep.tasks.v1',
      project: '/p',
      transcript_source: 'claude',
      n_sessions: 4,
      target_skill_path: '',
      reviewed: false,
      tasks: [
        { id: 'a', intent: 'first task', split: 'replay', reference_kind: 'rule', judge: { kind: 'rule', checks: [{ op: 'no_refusal', arg: null }] } },
        { id: 'b', intent: 'second task', split: 'holdout', source_sessions: ['s9'] },
      ],
    });
    const { file } = await readTaskFile(path);
    expect(file).toMatchObject({ source: 'claude', sessionCount: 4, reviewed: false });
    expect(file.tasks.map((entry) => entry.split)).toEqual(['train', 'val']);
    expect(file.tasks[1]?.sourceSessions).toEqual(['s9']);
  });

  it('assigns splits when no task is in val or test', async () => {
    const path = await fileWith([
      { id: 't0', intent: 'first task' },
      { id: 't4', intent: 'second task' },
    ]);
    const { file } = await readTaskFile(path);
    expect(file.tasks.map((entry) => entry.split)).toEqual(['val', 'train']);
  });

  it('suggests the nearest key for a misspelt one', async () => {
    const { warnings } = await readTaskFile(await fileWith({ tasks: [], reveiwed: true }));
    expect(warnings).toEqual(['file: unknown key "reveiwed" is ignored (did you mean "reviewed"?)']);
  });

  it('rejects malformed tasks and rule checks by shape, naming every task at fault', async () => {
    const path = await fileWith([
      { id: 'a', intent: 'first task', judge: { checks: [{ op: '', arg: 'x' }] } },
      { id: 'b', intent: 'second task', outcome: 'great' },
      { id: 'c', intent: 'third task', judge: { checks: [{ op: 'contains', arg: ['x'] }] } },
    ]);
    await expect(readTaskFile(path)).rejects.toThrow(SkillOptError);
    await expect(readTaskFile(path)).rejects.toThrow(/task a: judge[^;]*;.*task b: outcome.*task c: judge/);
  });

  it('reads a document already in memory as it reads a file, naming where it came from', async () => {
    const document = [
      { id: 'a', intent: 'first task', reference_kind: 'exact', reference: '42' },
      { id: 'b', intent: 'second task', reviewd: true },
    ];
    const path = await fileWith(document);
    expect(parseTaskFileDocument(document, path)).toEqual(await readTaskFile(path));
    expect(() => parseTaskFileDocument([{ id: 'c', intent: '' }], 'tasks.json converted from another tool')).toThrow(
      /^Invalid task file tasks.json converted from another tool: task c: intent: /,
    );
  });

  it('rejects an unknown format', async () => {
    await expect(readTaskFile(await fileWith({ format: 'other.v2', tasks: [] }))).rejects.toThrow(/format must be "skillopt.sleep.tasks.v1"/);
  });
});

describe('readTaskFile validates rule judges as the rule judge does', () => {
  it('refuses an unknown operator, naming the nearest, and passes warnings on', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'skillopt-task-judges-'));
    const file = join(folder, 'tasks.json');
    const rule = (checks: unknown[]) => ({ id: `t${checks.length}`, intent: 'write the summary', referenceKind: 'rule', judge: { checks } });
    await writeFile(file, JSON.stringify({ tasks: [rule([{ op: 'contain', arg: 'Summary' }])] }));
    await expect(readTaskFile(file)).rejects.toThrow(/contain.*contains/);
    await writeFile(file, JSON.stringify({ tasks: [rule([{ op: 'max_chars', arg: 500 }])] }));
    const { warnings } = await readTaskFile(file);
    expect(warnings.join('\n')).toContain('shape-only');
  });
});
