import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPackageResolver } from '@skillopt/core';
import { adoptStaged } from '../src/command-line/adopt-run.js';
import { type ProjectNightRequest, runProjectNight } from '../src/night/project-night.js';
import { personaFixture } from '../src/persona-fixtures.js';
import { readNightHistory } from '../src/project-state/night-history.js';
import { projectStateLayout } from '../src/project-state/project-state.js';
import { readStagedProposal } from '../src/staging/staged-proposals.js';
import { readTaskFile } from '../src/tasks/task-file.js';

// One night, several skills: each skill a session used gets its own tasks, gate and proposal; and
// recall brings a project's own earlier tasks back into training, never another project's.

const packageDirectory = path.resolve(__dirname, '..');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let root: string;
let stateDirectory: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'skillopt-sleep-fan-out-'));
  stateDirectory = path.join(root, 'state');
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

interface PersonaTask {
  id: string;
  split?: string;
  [key: string]: unknown;
}

/** A persona's tasks with the splits a night would give them on their own. */
async function personaTasks(persona: 'researcher' | 'programmer'): Promise<PersonaTask[]> {
  return (await readTaskFile(personaFixture(persona).tasksFile)).file.tasks as unknown as PersonaTask[];
}

/** Tasks no rule can satisfy: whatever the optimizer proposes, their skill's validation cannot improve. */
function hopelessTasks(count: number): PersonaTask[] {
  return Array.from({ length: count }, (_, index) => ({
    id: `hopeless_${index}`,
    intent: `Answer the riddle number ${index} freely.`,
    outcome: 'fail',
    referenceKind: 'exact',
    reference: 'an-answer-no-rule-can-produce',
    tags: ['rule:__harmful__'],
    split: index % 2 === 0 ? 'train' : 'val',
  }));
}

async function taskFile(project: string, tasks: readonly PersonaTask[], name = 'tasks.json'): Promise<string> {
  const file = path.join(root, name);
  await writeFile(file, JSON.stringify({ format: 'skillopt.sleep.tasks.v1', project, tasks: tasks.map((task) => ({ ...task, project })) }));
  return file;
}

async function skillDocument(project: string, name: string): Promise<string> {
  const document = path.join(project, '.claude', 'skills', name, 'SKILL.md');
  await mkdir(path.dirname(document), { recursive: true });
  await writeFile(document, `---\nname: ${name}\n---\n\n# ${name}\n\nAnswer the request directly.\n`);
  return document;
}

function night(project: string, overrides: Partial<ProjectNightRequest>) {
  return runProjectNight({
    project,
    workingDirectory: root,
    stateDirectory,
    resolver: createPackageResolver({ workingDirectory: root, fallbackDirectories: [packageDirectory] }),
    ...overrides,
  });
}

describe('a night over several skills', () => {
  test('each skill its own gate and proposal: the accepted one is staged and adopted, the rejected one keeps its baseline pin', async () => {
    const project = path.join(root, 'app');
    const alpha = await skillDocument(project, 'alpha');
    const beta = await skillDocument(project, 'beta');
    const betaBefore = await readFile(beta, 'utf8');
    const tasks = [
      ...(await personaTasks('researcher')).map((task) => ({ ...task, skillHint: 'alpha' })),
      ...hopelessTasks(4).map((task) => ({ ...task, skillHint: 'beta' })),
      { ...hopelessTasks(1)[0]!, id: 'unknown_skill_task', skillHint: 'gamma' },
    ];
    const result = await night(project, { tasksFile: await taskFile(project, tasks) });
    expect(result.outcome).toBe('accepted');
    expect(result.skills.map((skill) => [skill.skill, skill.outcome])).toEqual([
      ['alpha', 'accepted'],
      ['beta', 'rejected'],
      ['gamma', 'skipped'],
    ]);
    const [alphaNight, betaNight, gammaNight] = result.skills;
    expect(alphaNight).toMatchObject({ documentPath: alpha, staging: { directory: expect.stringMatching(/-night-1-alpha$/) } });
    expect(betaNight).toMatchObject({ documentPath: beta, staging: null, baselineSha256: sha256(betaBefore) });
    expect(gammaNight?.reason).toMatch(/^skill gamma not found: no gamma\/SKILL\.md in /);
    expect(result.markdown).toContain('# SkillOpt Sleep night 1: 3 skills, accepted');
    expect(result.markdown).toContain('## SkillOpt Sleep night 1: the gate accepted new rules');
    // Each skill replayed in a folder of its own.
    expect(existsSync(path.join(result.nightDirectory, 'skills', 'alpha', 'run'))).toBe(true);
    expect(existsSync(path.join(result.nightDirectory, 'skills', 'beta', 'run'))).toBe(true);

    const adopted = await adoptStaged({ project, stateDirectory, workingDirectory: root });
    expect(adopted.map((adoption) => adoption.documents[0]?.livePath)).toEqual([alpha]);
    expect(await readFile(alpha, 'utf8')).toContain('- Keep the arXiv: prefix on paper ids; never drop it.');
    expect(sha256(await readFile(beta, 'utf8'))).toBe(betaNight?.baselineSha256);

    const [record] = await readNightHistory(projectStateLayout(stateDirectory, project).directory);
    expect(record?.skills.map((skill) => [skill.skill, skill.outcome, skill.staging !== null])).toEqual([
      ['alpha', 'accepted', true],
      ['beta', 'rejected', false],
      ['gamma', 'skipped', false],
    ]);
  });

  test('two accepted skills: adopt asks which, --skill adopts one, --all-skills the rest, undo takes a name too', async () => {
    const project = path.join(root, 'app');
    const alpha = await skillDocument(project, 'alpha');
    const delta = await skillDocument(project, 'delta');
    const tasks = [
      ...(await personaTasks('researcher')).map((task) => ({ ...task, skillHint: 'alpha' })),
      ...(await personaTasks('programmer')).map((task) => ({ ...task, skillHint: 'delta' })),
    ];
    const result = await night(project, { tasksFile: await taskFile(project, tasks) });
    expect(result.skills.map((skill) => skill.outcome)).toEqual(['accepted', 'accepted']);
    const adopt = (options: { skills?: string[]; allSkills?: boolean; undo?: boolean }) =>
      adoptStaged({ project, stateDirectory, workingDirectory: root, ...options });

    await expect(adopt({})).rejects.toMatchObject({ code: 'selection-required', details: { skills: ['alpha', 'delta'] } });
    await expect(adopt({ skills: ['delt'] })).rejects.toThrow('did you mean "delta"?');
    expect((await adopt({ skills: ['delta'] })).map((adoption) => adoption.documents[0]?.livePath)).toEqual([delta]);
    expect((await adopt({ allSkills: true })).map((adoption) => adoption.documents[0]?.livePath)).toEqual([alpha]);
    await expect(adopt({ undo: true })).rejects.toMatchObject({ code: 'selection-required' });
    await adopt({ undo: true, skills: ['alpha'] });
    expect((await readStagedProposal(result.skills[0]!.staging!.directory)).status).toBe('undone');
    expect((await readStagedProposal(result.skills[1]!.staging!.directory)).status).toBe('adopted');
  });
});

describe('recall', () => {
  test("recalls a project's own earlier tasks into training, never another project's", async () => {
    const projectA = path.join(root, 'a');
    const projectB = path.join(root, 'b');
    const researcher = await personaTasks('researcher');
    const programmer = await personaTasks('programmer');
    await night(projectA, { tasksFile: await taskFile(projectA, researcher, 'a.json') });
    await night(projectB, { tasksFile: await taskFile(projectB, programmer, 'b.json') });
    // Project B's second night: new requests of the same kind, and both archives hold earlier tasks.
    const newer = programmer.map((task) => ({ ...task, id: `${task.id}_again` }));
    const second = await night(projectB, { tasksFile: await taskFile(projectB, newer, 'b2.json'), recall: 3 });
    expect(second.skills[0]?.recalled).toBe(3);
    const replayed = JSON.parse(await readFile(path.join(second.nightDirectory, 'tasks.json'), 'utf8')).tasks as Array<Record<string, string>>;
    const recalled = replayed.filter((task) => task.id?.startsWith('recall:'));
    expect(recalled).toHaveLength(3);
    const programmerIds = new Set(programmer.map((task) => task.id));
    for (const task of recalled) {
      expect(programmerIds.has(task.derivedFrom as string)).toBe(true);
      expect(task.split).toBe('train');
      expect(task.project).toBe(projectB);
    }
    // Only training tasks are recalled: an archived validation task never becomes training.
    const trainIds = new Set(programmer.filter((task) => task.split === 'train').map((task) => task.id));
    expect(trainIds.size).toBeLessThan(programmer.length);
    for (const task of recalled) expect(trainIds.has(task.derivedFrom as string)).toBe(true);
    expect(replayed.some((task) => researcher.some((researcherTask) => task.derivedFrom === researcherTask.id))).toBe(false);
  });
});
