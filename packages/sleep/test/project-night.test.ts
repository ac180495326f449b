import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { createPackageResolver } from '@skillopt/core';
import { createCheckpointStore } from '../src/checkpoints/checkpoint-store.js';
import { adoptStaged } from '../src/command-line/adopt-run.js';
import { readSleepStatus } from '../src/command-line/status-run.js';
import { type ProjectNightRequest, runProjectNight } from '../src/night/project-night.js';
import { personaFixture } from '../src/persona-fixtures.js';
import { readNightHistory } from '../src/project-state/night-history.js';
import { lockProjectState, projectStateLayout } from '../src/project-state/project-state.js';
import { readStagedProposal } from '../src/staging/staged-proposals.js';

// `sleep run`, `status` and `adopt` on a temporary project and state directory, on the simulated
// model: a night stages, adoption writes, undo restores; what must be refused is refused.

const packageDirectory = path.resolve(__dirname, '..');
const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

let root: string;
let project: string;
let stateDirectory: string;
let skill: string;
beforeEach(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'skillopt-sleep-night-'));
  project = path.join(root, 'app');
  stateDirectory = path.join(root, 'state');
  skill = path.join(project, '.claude', 'skills', 'research', 'SKILL.md');
  await mkdir(path.dirname(skill), { recursive: true });
  await writeFile(skill, await readFile(personaFixture('researcher').skillFile, 'utf8'));
});
afterEach(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The researcher persona's tasks, as this project's reviewed task file. */
async function researcherTasks(forProject = project): Promise<string> {
  const file = JSON.parse(await readFile(personaFixture('researcher').tasksFile, 'utf8'));
  file.project = forProject;
  for (const task of file.tasks) task.project = forProject;
  const tasksFile = path.join(root, 'tasks.json');
  await writeFile(tasksFile, JSON.stringify(file));
  return tasksFile;
}

function night(overrides: Partial<ProjectNightRequest> = {}) {
  return runProjectNight({
    project,
    workingDirectory: root,
    stateDirectory,
    skill,
    resolver: createPackageResolver({ workingDirectory: root, fallbackDirectories: [packageDirectory] }),
    ...overrides,
  });
}

const adopt = (undo = false) => adoptStaged({ project, stateDirectory, workingDirectory: root, undo });

describe('sleep run: one night of a project, staged for review', () => {
  test('stages the accepted document without touching it; adopt writes it, undo puts it back', async () => {
    const original = await readFile(skill, 'utf8');
    const result = await night({ tasksFile: await researcherTasks() });
    expect(result).toMatchObject({ night: 1, outcome: 'accepted', checkpointAdvanced: false });
    expect(await readFile(skill, 'utf8')).toBe(original);
    const staging = result.skills[0]!.staging!;
    expect(path.dirname(staging.directory)).toBe(projectStateLayout(stateDirectory, project).stagingRoot);
    const proposal = await readStagedProposal(staging.directory);
    expect(proposal.status).toBe('pending');
    expect(proposal.manifest.documents).toEqual([expect.objectContaining({ livePath: skill, liveSha256: sha256(original) })]);
    const proposed = await readFile(path.join(staging.directory, proposal.manifest.documents[0]!.proposedFile), 'utf8');
    expect(proposed).toContain('- Keep the arXiv: prefix on paper ids; never drop it.');
    expect(proposed.startsWith(original.trimEnd())).toBe(true);
    expect(result.markdown).toContain('# SkillOpt Sleep night 1: the gate accepted new rules');
    expect(result.markdown).toContain(`Staged in \`${staging.directory}\``);

    expect((await readSleepStatus({ project, stateDirectory, workingDirectory: root })).proposals).toEqual([
      expect.objectContaining({ directory: staging.directory, night: 1, status: 'pending' }),
    ]);
    const [adopted] = await adopt();
    expect(adopted?.action).toBe('adopt');
    expect(await readFile(skill, 'utf8')).toBe(proposed);
    expect(await readFile(adopted!.documents[0]!.backupFile!, 'utf8')).toBe(original);
    expect((await readSleepStatus({ project, stateDirectory, workingDirectory: root })).proposals[0]?.status).toBe('adopted');
    await expect(adopt()).rejects.toMatchObject({ code: 'nothing-to-adopt' });

    await adopt(true);
    expect(await readFile(skill, 'utf8')).toBe(original);
    expect((await readSleepStatus({ project, stateDirectory, workingDirectory: root })).proposals[0]?.status).toBe('undone');

    const history = await readNightHistory(projectStateLayout(stateDirectory, project).directory);
    expect(history).toEqual([
      expect.objectContaining({
        night: 1,
        outcome: 'accepted',
        skills: [expect.objectContaining({ skill: 'research', staging: staging.directory, validation: { before: expect.any(Number), after: 1 } })],
      }),
    ]);
  });

  test('adopt is refused when the document changed after the night read it, and writes nothing', async () => {
    await night({ tasksFile: await researcherTasks() });
    const edited = `${await readFile(skill, 'utf8')}\nMy own note, written after the night.\n`;
    await writeFile(skill, edited);
    const refusal = await adopt().catch((error: unknown) => error);
    expect(SkillOptError.isInstance(refusal) && refusal.code).toBe('adoption-refused');
    expect((refusal as Error).message).toContain(skill);
    expect(await readFile(skill, 'utf8')).toBe(edited);
  });

  test('a missing skill document starts from a scaffold: adoption creates it, undo removes it with the folders it made', async () => {
    const managed = path.join(project, '.claude', 'skills', 'skillopt-sleep-learned', 'SKILL.md');
    const result = await night({ tasksFile: await researcherTasks(), skill: undefined });
    expect(result.outcome).toBe('accepted');
    const proposal = await readStagedProposal(result.skills[0]!.staging!.directory);
    expect(proposal.manifest.documents[0]).toMatchObject({ livePath: managed, liveSha256: null });
    expect(proposal.manifest.skill).toBe('skillopt-sleep-learned');
    expect(existsSync(managed)).toBe(false);
    await adopt();
    const created = await readFile(managed, 'utf8');
    expect(created).toContain('name: skillopt-sleep-learned');
    expect(created).toContain('- Keep the arXiv: prefix on paper ids; never drop it.');
    await adopt(true);
    expect(existsSync(path.dirname(managed))).toBe(false);
    expect(existsSync(path.join(project, '.claude', 'skills'))).toBe(true);
  });

  test('--staging-in-project stages in the project with a .gitignore beside it', async () => {
    const result = await night({ tasksFile: await researcherTasks(), stagingInProject: true });
    expect(path.dirname(result.skills[0]!.staging!.directory)).toBe(path.join(project, '.skillopt-sleep', 'staging'));
    expect(await readFile(path.join(project, '.skillopt-sleep', '.gitignore'), 'utf8')).toMatch(/^\*$/m);
    await adopt();
    expect(await readFile(skill, 'utf8')).toContain('Keep the arXiv: prefix');
  });

  test('autoAdopt adopts what the night stages, as adopt would', async () => {
    const result = await night({ tasksFile: await researcherTasks(), autoAdopt: true });
    expect(result.adoptions).toEqual([expect.objectContaining({ action: 'adopt', stagingDirectory: result.skills[0]!.staging!.directory })]);
    expect(await readFile(skill, 'utf8')).toContain('- Keep the arXiv: prefix on paper ids; never drop it.');
    expect((await readStagedProposal(result.skills[0]!.staging!.directory)).status).toBe('adopted');
  });

  test('two nights at once on one project: the second is refused, naming the first, and the first completes', async () => {
    const tasksFile = await researcherTasks();
    const [first, second] = await Promise.allSettled([night({ tasksFile }), night({ tasksFile })]);
    const outcomes = [first, second].map((settled) => settled.status);
    expect(outcomes.sort()).toEqual(['fulfilled', 'rejected']);
    const refused = [first, second].find((settled) => settled.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ code: 'directory-locked', category: 'user' });
    expect(refused.reason.message).toContain('(sleep night)');
    expect(await readNightHistory(projectStateLayout(stateDirectory, project).directory)).toHaveLength(1);
  });

  test('a night of one project is refused while another process holds its state, and another project is not', async () => {
    const held = await lockProjectState({ stateDirectory, project, purpose: 'sleep night' });
    try {
      await expect(night({ tasksFile: await researcherTasks() })).rejects.toMatchObject({ code: 'directory-locked' });
      const other = path.join(root, 'other');
      await mkdir(other);
      const result = await night({ project: other, tasksFile: await researcherTasks(other) });
      expect(result.outcome).toBe('accepted');
    } finally {
      await held.release();
    }
  });

  test("a task file of another project is refused before anything runs: one project's tasks never train another's skill", async () => {
    await expect(night({ tasksFile: await researcherTasks('/somewhere/else') })).rejects.toThrow(/holds tasks of \/somewhere\/else, and this night is for/);
    expect(existsSync(projectStateLayout(stateDirectory, project).stagingRoot)).toBe(false);
  });
});

/** Claude Code sessions of the project, one per request, under `<root>/claude`. */
async function claudeSessions(requests: readonly string[]): Promise<string> {
  const claudeHome = path.join(root, 'claude');
  const folder = path.join(claudeHome, 'projects', project.replace(/\//g, '-'));
  await mkdir(folder, { recursive: true });
  for (const [index, request] of requests.entries()) {
    const common = {
      cwd: project,
      sessionId: `c0ffee00-0000-4000-8000-00000000002${index}`,
      timestamp: new Date(Date.now() - (index + 1) * 3_600_000).toISOString(),
    };
    const lines = [
      { type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: request }, ...common },
      { type: 'assistant', uuid: 'a', parentUuid: 'u', message: { role: 'assistant', content: [{ type: 'text', text: 'Here it is. Thanks!' }] }, ...common },
      { type: 'user', uuid: 'v', parentUuid: 'a', message: { role: 'user', content: 'perfect, thanks' }, ...common },
    ];
    await writeFile(path.join(folder, `${common.sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
  }
  return claudeHome;
}

describe('sleep run on the project’s own sessions: checkpoints and budgets', () => {
  const requests = [
    'What is the arXiv id of the GAN paper?',
    'What is the arXiv id of the BERT paper?',
    'What is the arXiv id of the Adam paper?',
    'What is the arXiv id of the ResNet paper?',
    'What is the arXiv id of the VAE paper?',
    'What is the arXiv id of the word2vec paper?',
  ];

  test('a night that reaches a decision on its harvest moves the checkpoint; the next night reads nothing new', async () => {
    const claudeHome = await claudeSessions(requests);
    const harvest = { sources: ['claude-code'], locations: { claudeHome } };
    const first = await night(harvest);
    expect(first.mined).toMatchObject({ sessions: 6, miner: 'llm', minerCalls: { calls: 6, simulated: true } });
    expect(['accepted', 'rejected']).toContain(first.outcome);
    expect(first.checkpointAdvanced).toBe(true);
    expect(first.usage.byPurpose.mine).toBe(6);
    expect(await createCheckpointStore(stateDirectory).read(project, 'claude-code')).toEqual(expect.any(Number));
    const second = await night(harvest);
    expect(second).toMatchObject({ night: 2, outcome: 'no-tasks', mined: { sessions: 0 } });
    const status = await readSleepStatus({ project, stateDirectory, workingDirectory: root });
    expect(status.recentNights.map((record) => record.outcome)).toEqual([first.outcome, 'no-tasks']);
    expect(Object.keys(status.checkpoints)).toContain('claude-code');
  });

  test('a spent budget stops the night: nothing staged, no checkpoint, the spent figures reported; the next night starts over', async () => {
    const claudeHome = await claudeSessions(requests);
    const harvest = { sources: ['claude-code'], locations: { claudeHome } };
    const stopped = await night({ ...harvest, overrides: ['budget.total.max_calls=10'] });
    expect(stopped.outcome).toBe('budget-spent');
    expect(stopped.skills[0]?.staging).toBeNull();
    expect(stopped.checkpointAdvanced).toBe(false);
    // Mining took 6 calls; the night's replays took the other 4 of the 10, counted as one budget.
    expect(stopped.skills[0]?.report?.budget?.spent).toEqual([{ scope: 'total', limit: 'maxCalls', max: 10, used: 10, configKey: 'budget.total.max_calls' }]);
    expect(stopped.usage.calls).toBe(10);
    expect(stopped.markdown).toContain('budget.total.max_calls: 10 of 10 used');
    expect(await createCheckpointStore(stateDirectory).read(project, 'claude-code')).toBeUndefined();
    expect(existsSync(projectStateLayout(stateDirectory, project).stagingRoot)).toBe(false);

    const stoppedWhileMining = await night({ ...harvest, overrides: ['budget.optimizer.max_calls=3'] });
    expect(stoppedWhileMining.outcome).toBe('budget-spent');
    expect(stoppedWhileMining.skills[0]?.report?.budget?.spent).toEqual([
      expect.objectContaining({ configKey: 'budget.optimizer.max_calls', used: 3, max: 3 }),
    ]);

    const next = await night(harvest);
    expect(next.mined?.sessions).toBe(6);
    expect(next.checkpointAdvanced).toBe(true);
  });

  test('an unknown backend is an error naming the nearest, never a silent stand-in; a malformed config file is named', async () => {
    const tasksFile = await researcherTasks();
    await expect(night({ tasksFile, overrides: ['model.target_backend=smi'] })).rejects.toThrow(/sim/);
    const configFile = path.join(root, 'night.yaml');
    await writeFile(configFile, 'model:\n  target_backend: [sim\n');
    await expect(night({ tasksFile, layers: [{ file: configFile }] })).rejects.toThrow(configFile);
    const history = await readNightHistory(projectStateLayout(stateDirectory, project).directory);
    expect(history.map((record) => record.outcome)).toEqual(['failed', 'failed']);
  });
});
