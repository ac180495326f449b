import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { groupTasksBySkill, skillNameOf } from '../src/night/skill-groups.js';
import { recallSimilarTasks } from '../src/night/task-recall.js';
import { resolveSkill, skillRoots } from '../src/skills/skill-resolver.js';
import { taskRecord } from './task-records.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'skill-resolver-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function skill(folder: string, name: string): string {
  const file = path.join(folder, name, 'SKILL.md');
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `# ${name}\n`);
  return file;
}

describe('the skill resolver', () => {
  test("finds a skill in the project's folders or Claude Code's, says when it is missing or ambiguous, refuses a bad name", async () => {
    const project = path.join(root, 'app');
    const claudeHome = path.join(root, 'home', '.claude');
    const papers = skill(path.join(project, '.claude', 'skills'), 'papers');
    const commits = skill(path.join(claudeHome, 'skills'), 'commits');
    skill(path.join(project, '.agents', 'skills'), 'twice');
    skill(path.join(project, '.cursor', 'skills'), 'twice');
    const roots = await skillRoots({ project, claudeHome });
    expect(roots).toEqual([
      path.join(project, '.agents/skills'),
      path.join(project, '.claude/skills'),
      path.join(project, '.cursor/skills'),
      path.join(claudeHome, 'skills'),
    ]);
    expect(await resolveSkill('papers', roots)).toEqual({ status: 'found', skill: 'papers', path: papers });
    expect(await resolveSkill('commits', roots)).toEqual({ status: 'found', skill: 'commits', path: commits });
    expect(await resolveSkill('absent', roots)).toMatchObject({ status: 'missing' });
    expect(await resolveSkill('twice', roots)).toMatchObject({ status: 'ambiguous', candidates: [expect.any(String), expect.any(String)] });
    for (const name of ['../escape', '', '~root', 'a/b']) expect((await resolveSkill(name, roots)).status).toBe('rejected');
  });

  test('a skill folder linked from outside its root is not taken for the skill', async () => {
    const project = path.join(root, 'app');
    const outside = skill(path.join(root, 'elsewhere'), 'outsider');
    mkdirSync(path.join(project, '.claude', 'skills'), { recursive: true });
    symlinkSync(path.dirname(outside), path.join(project, '.claude', 'skills', 'outsider'));
    expect((await resolveSkill('outsider', await skillRoots({ project }))).status).toBe('missing');
  });
});

describe('skills of a night and recall', () => {
  test("tasks go to the skill their session used, the rest to the night's document", () => {
    expect(skillNameOf('/p/.claude/skills/papers/SKILL.md')).toBe('papers');
    expect(skillNameOf('/p/AGENTS.md')).toBe('AGENTS');
    const groups = groupTasksBySkill(
      [taskRecord({ id: 'a', skillHint: 'papers' }), taskRecord({ id: 'b' }), taskRecord({ id: 'c', skillHint: 'papers' })],
      'learned',
    );
    expect(groups.map((group) => [group.skill, group.tasks.map((task) => task.id)])).toEqual([
      ['learned', ['b']],
      ['papers', ['a', 'c']],
    ]);
  });

  test('recall takes the most similar archived training tasks, never a task held out or already there', () => {
    const tonight = [taskRecord({ id: 't1', intent: 'write the commit message for the login form' }), taskRecord({ id: 'v1', split: 'val', intent: 'x' })];
    const archive = [
      taskRecord({ id: 'close', intent: 'write the commit message for the parser fix' }),
      taskRecord({ id: 'far', intent: 'arXiv id of BERT, please' }),
      taskRecord({ id: 'held-out', split: 'val', intent: 'write the commit message for the login form' }),
      taskRecord({ id: 't1', intent: 'write the commit message for the login form' }),
      taskRecord({ id: 'closer', intent: 'commit message for the login form' }),
    ];
    const recalled = recallSimilarTasks(tonight, archive, 5);
    expect(recalled.map((task) => task.id)).toEqual(['recall:closer', 'recall:close']);
    expect(recalled[0]).toMatchObject({ split: 'train', derivedFrom: 'closer', tags: ['recall'] });
    expect(recallSimilarTasks(tonight, archive, 0)).toEqual([]);
  });
});
