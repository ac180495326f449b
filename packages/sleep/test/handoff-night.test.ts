import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { HandoffIndex } from '@skillopt/backends-handoff';
import { createBackend } from '@skillopt/backends-sim';
import { AnswerPendingError, type GenerateRequest } from '@skillopt/contract';
import { createPackageResolver } from '@skillopt/core';
import { projectStateDirectory } from '../src/checkpoints/state-directory.js';
import { runSleepCommandLine } from '../src/command-line/sleep-command-line.js';
import { nightTaskItem } from '../src/night/night-task-items.js';
import { personaFixture } from '../src/persona-fixtures.js';
import { runProjectNight } from '../src/night/project-night.js';
import { lockProjectState, projectStateLayout } from '../src/project-state/project-state.js';
import { readTaskFile } from '../src/tasks/task-file.js';
import type { TaskRecord } from '../src/tasks/task-record.js';

// A Sleep night on the handoff backend, as a plugin's slash command drives it: run the command;
// on exit 3 read the handoff folder's index.json, answer each request (here with the simulated
// model, as `--backend sim` would have answered in process), run the same command again; at most
// 8 rounds. The night it finishes must be the one the simulated model gives. No test names the
// handoff folder: each finds it where Sleep keeps it in its state, which the same command run again
// uses every time (a dry run's in dry-runs/handoff, a project's night's and mining's in the
// project's folder).

const packageDirectory = path.resolve(__dirname, '..');
const MOST_ROUNDS = 8;

let workDirectory: string;
/** Where the requests of the command under test wait: set by each test. */
let handoffDirectory: string;
let written: string[];
let errors: string[];
beforeEach(async () => {
  workDirectory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-sleep-handoff-'));
  written = [];
  errors = [];
});
afterEach(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

function run(...argv: string[]) {
  written = [];
  errors = [];
  return runSleepCommandLine(argv, {
    write: (text) => written.push(text),
    writeError: (text) => errors.push(text),
    workingDirectory: workDirectory,
    fallbackDirectories: [packageDirectory],
    // Sleep's default state folder is the test's own (~/.skillopt-sleep of a HOME in workDirectory).
    environment: { HOME: workDirectory },
  });
}

const handoffFlags = ['--backend', 'handoff'];

async function handoffIndex(): Promise<HandoffIndex> {
  return JSON.parse(await readFile(path.join(handoffDirectory, 'index.json'), 'utf8')) as HandoffIndex;
}

async function personaTasks(persona: 'researcher' | 'programmer'): Promise<TaskRecord[]> {
  return (await readTaskFile(personaFixture(persona).tasksFile)).file.tasks;
}

type PendingRequest = HandoffIndex['pending'][number];

/** The user's agent: the simulated model, knowing the personas' tasks as a night's run setup hands them to it. */
async function simulatedAgent() {
  const backend = createBackend({});
  backend.simulator.receiveTaskItems([...(await personaTasks('researcher')), ...(await personaTasks('programmer'))].map(nightTaskItem));
  const models = { target: backend.createChatModel({ role: 'target' }), optimizer: backend.createChatModel({ role: 'optimizer' }) };
  return {
    /** Writes an answer for every request index.json lists (or those `which` keeps); returns how many. */
    async answerAll(which: (entry: PendingRequest) => boolean = () => true): Promise<number> {
      const pending = (await handoffIndex()).pending.filter(which);
      await mkdir(path.join(handoffDirectory, 'answers'), { recursive: true });
      for (const entry of pending) {
        const {
          id: _id,
          role: _role,
          ...request
        } = JSON.parse(await readFile(path.join(handoffDirectory, entry.requestFile), 'utf8')) as GenerateRequest & {
          id: string;
          role: string;
        };
        const reply = await models[entry.role === 'optimizer' ? 'optimizer' : 'target'].generate(request);
        await writeFile(path.join(handoffDirectory, entry.answerFile), reply.text);
      }
      return pending.length;
    },
  };
}

/** The command run, answered and run again until it exits other than 3; the exit code and how many runs it took. */
async function runUntilAnswered(argv: readonly string[]): Promise<{ code: number; runs: number }> {
  const agent = await simulatedAgent();
  for (let runs = 1; ; runs += 1) {
    const code = await run(...argv);
    if (code !== 3 || runs === MOST_ROUNDS) return { code, runs };
    expect(await agent.answerAll()).toBeGreaterThan(0);
  }
}

describe('a Sleep night on the handoff backend: exit 3 while requests wait, the same command again until it finishes', () => {
  test('dry-run --persona researcher stops with exit 3, names the folder, and a fresh attempt asks the same requests', async () => {
    handoffDirectory = path.join(workDirectory, '.skillopt-sleep', 'dry-runs', 'handoff');
    const argv = ['dry-run', '--persona', 'researcher', ...handoffFlags];
    expect(await run(...argv)).toBe(3);
    expect(written).toEqual([]);
    const message = errors.join('');
    expect(message).toContain(`skillopt-sleep: 12 requests wait for an answer in ${handoffDirectory} (listed in its index.json).`);
    expect(message).toContain('Answer each request in its answer file, then run the same command again (`skillopt-sleep dry-run` with the same flags)');
    expect(message).not.toContain('--resume');
    const first = (await handoffIndex()).pending.map((entry) => [entry.id, entry.requestKey]);
    expect(first).toHaveLength(12);
    // Everything is in Sleep's state: nothing lands in the folder the command ran in.
    expect(await readdir(workDirectory)).toEqual(['.skillopt-sleep']);

    // Without --out each attempt is a fresh night in a fresh folder: it asks the same requests, by the same keys.
    expect(await run(...argv)).toBe(3);
    expect((await handoffIndex()).pending.map((entry) => [entry.id, entry.requestKey])).toEqual(first);
  });

  test('dry-run --persona researcher --out: answered round by round, it finishes with the night the simulated model gives', async () => {
    handoffDirectory = path.join(workDirectory, '.skillopt-sleep', 'dry-runs', 'handoff');
    const { code, runs } = await runUntilAnswered(['dry-run', '--persona', 'researcher', ...handoffFlags, '--out', 'night', '--json']);
    expect(code).toBe(0);
    // The replays of the rules before the night, the reflection, then the candidate's replays.
    expect(runs).toBe(4);
    expect((await handoffIndex()).pending).toEqual([]);
    const handedOff = JSON.parse(written[0] as string);
    expect(await run('dry-run', '--persona', 'researcher', '--backend', 'sim', '--out', 'reference', '--json')).toBe(0);
    const simulated = JSON.parse(written[0] as string);
    expect(handedOff).toMatchObject({ type: 'result', outcome: 'accepted', validation: simulated.validation, rules: simulated.rules });
    expect(handedOff.validation.after.score).toBeGreaterThan(handedOff.validation.before.score);
    expect(handedOff.wouldStage).toEqual(simulated.wouldStage);
  }, 60_000);

  test('run --persona researcher stopped for answers stages nothing and leaves the project unlocked; answered, it stages one proposal', async () => {
    const state = ['--state-dir', 'state'];
    handoffDirectory = path.join(projectStateDirectory(path.join(workDirectory, 'state'), workDirectory), 'handoff');
    const argv = ['run', '--persona', 'researcher', ...handoffFlags, ...state];
    expect(await run(...argv)).toBe(3);
    expect(errors.join('')).toContain(`requests wait for an answer in ${handoffDirectory} (listed in its index.json)`);
    expect(errors.join('')).toContain('then run the same command again (`skillopt-sleep run` with the same flags)');
    expect(await run('status', ...state, '--json')).toBe(0);
    const stopped = JSON.parse(written[0] as string);
    expect(stopped).toMatchObject({ proposals: [], checkpoints: {}, recentNights: [{ night: 1, outcome: 'failed', checkpointAdvanced: false }] });
    expect(stopped.runningNight).toBeUndefined();
    const lock = await lockProjectState({ stateDirectory: path.join(workDirectory, 'state'), project: workDirectory, purpose: 'the test' });
    await lock.release();

    const { code } = await runUntilAnswered(argv);
    expect(code).toBe(0);
    expect(await run('status', ...state, '--json')).toBe(0);
    expect(JSON.parse(written[0] as string).proposals).toEqual([expect.objectContaining({ status: 'pending', skill: 'skillopt-sleep-learned' })]);
  }, 60_000);
});

describe('skillopt-sleep mine --miner llm on the handoff backend', () => {
  test('every session is asked at once, then the same command mines with the answers', async () => {
    const folder = path.join(workDirectory, 'claude', 'projects', '-work-papers');
    await mkdir(folder, { recursive: true });
    const requests = ['What is the arXiv id of the GAN paper?', 'What is the arXiv id of the BERT paper?', 'What is the arXiv id of the Adam paper?'];
    for (const [index, request] of requests.entries()) {
      const common = { cwd: '/work/papers', sessionId: `c0ffee00-0000-4000-8000-00000000002${index}`, timestamp: `2026-11-0${index + 1}T10:00:00.000Z` };
      const lines = [
        { type: 'user', uuid: 'u', parentUuid: null, message: { role: 'user', content: request }, ...common },
        { type: 'assistant', uuid: 'a', parentUuid: 'u', message: { role: 'assistant', content: [{ type: 'text', text: 'Here it is.' }] }, ...common },
      ];
      await writeFile(path.join(folder, `${common.sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    }
    const argv = ['mine', '--project', '/work/papers', '--source', 'claude-code', '--lookback', '0', '--claude-home', 'claude', '--state-dir', 'state'];
    // The project's folder, as its nights': `sleep run` finds the miner's answers there too.
    handoffDirectory = path.join(projectStateDirectory(path.join(workDirectory, 'state'), '/work/papers'), 'handoff');
    const mine = [...argv, '--miner', 'llm', ...handoffFlags, '--out', 'tasks.json', '--json'];
    expect(await run(...mine)).toBe(3);
    expect(errors.join('')).toContain(`3 requests wait for an answer in ${handoffDirectory}`);
    expect((await handoffIndex()).pending.map((entry) => entry.purpose)).toEqual(['mine', 'mine', 'mine']);

    const { code, runs } = await runUntilAnswered(mine);
    expect([code, runs]).toEqual([0, 2]);
    expect(JSON.parse(written[0] as string)).toMatchObject({ miner: 'llm', tasks: 3, needReference: 0 });
  });
});

describe('a night over several skills on the handoff backend', () => {
  test('one skill accepted while another waits for answers: nothing is staged until the night finishes', async () => {
    const project = path.join(workDirectory, 'app');
    const tasks = [
      ...(await personaTasks('researcher')).map((task) => ({ ...task, project, skillHint: 'alpha' })),
      ...(await personaTasks('programmer')).map((task) => ({ ...task, project, skillHint: 'delta' })),
    ];
    for (const skill of ['alpha', 'delta']) {
      const document = path.join(project, '.claude', 'skills', skill, 'SKILL.md');
      await mkdir(path.dirname(document), { recursive: true });
      await writeFile(document, `---\nname: ${skill}\n---\n\n# ${skill}\n\nAnswer the request directly.\n`);
    }
    const tasksFile = path.join(workDirectory, 'tasks.json');
    await writeFile(tasksFile, JSON.stringify({ format: 'skillopt.sleep.tasks.v1', project, tasks }));
    const stateDirectory = path.join(workDirectory, 'state');
    handoffDirectory = path.join(projectStateLayout(stateDirectory, project).directory, 'handoff');
    const night = () =>
      runProjectNight({
        project,
        tasksFile,
        workingDirectory: workDirectory,
        stateDirectory,
        overrides: ['model.target_backend=handoff', 'model.optimizer_backend=handoff'],
        resolver: createPackageResolver({ workingDirectory: workDirectory, fallbackDirectories: [packageDirectory] }),
      });
    const deltaItems = new Set(tasks.filter((task) => task.skillHint === 'delta').map((task) => task.id));
    const isDeltaReplay = (entry: PendingRequest) => deltaItems.has(entry.requestKey?.split('/')[2] ?? '');

    // Both skills' replays wait at once: the first skill's stop does not hide the second's requests.
    const first = await night().catch((error: unknown) => error);
    expect(AnswerPendingError.isInstance(first)).toBe(true);
    expect((await handoffIndex()).pending.filter(isDeltaReplay)).toHaveLength(deltaItems.size);
    expect((await handoffIndex()).pending.length).toBeGreaterThan(deltaItems.size);

    // The agent answers all but delta's replays: alpha's night runs to its gate, and delta's still waits.
    const agent = await simulatedAgent();
    let stop: unknown;
    for (let runs = 1; runs <= MOST_ROUNDS; runs += 1) {
      if ((await agent.answerAll((entry) => !isDeltaReplay(entry))) === 0) break;
      stop = await night().catch((error: unknown) => error);
    }
    expect(AnswerPendingError.isInstance(stop)).toBe(true);
    expect((await handoffIndex()).pending.every(isDeltaReplay)).toBe(true);
    const layout = projectStateLayout(stateDirectory, project);
    await expect(readdir(layout.stagingRoot)).rejects.toThrow('ENOENT');

    // Delta's answers too: the night runs both skills again, reusing every answer, and stages both.
    let finished: Awaited<ReturnType<typeof night>> | undefined;
    for (let runs = 1; finished === undefined && runs <= MOST_ROUNDS; runs += 1) {
      await agent.answerAll();
      finished = await night().catch((error: unknown) => {
        if (!AnswerPendingError.isInstance(error)) throw error;
        return undefined;
      });
    }
    expect(finished?.skills.map((skill) => [skill.skill, skill.outcome])).toEqual([
      ['alpha', 'accepted'],
      ['delta', 'accepted'],
    ]);
    expect(await readdir(layout.stagingRoot)).toHaveLength(2);
  }, 60_000);
});
