import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createPackageResolver } from '@skillopt/core';
import { claudeCodeSource } from '../src/sources/claude-code/claude-code-source.js';
import {
  assignSplits,
  type HarvestedSession,
  harvestSessions,
  heuristicMine,
  projectScope,
  readTaskFile,
  renderNightReport,
  runNight,
  type TaskRecord,
} from '../src/index.js';

const packageDirectory = path.resolve(__dirname, '..');
const personas = path.join(packageDirectory, 'examples', 'personas');

let workDirectory: string;
beforeEach(async () => {
  workDirectory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-night-'));
});
afterEach(async () => {
  await rm(workDirectory, { recursive: true, force: true });
});

/** One dry-run night on these tasks, over a copy of the personas' starting document. */
async function nightOn(tasks: readonly TaskRecord[], overrides: string[] = []) {
  const documentPath = path.join(workDirectory, 'SKILL.md');
  await copyFile(path.join(personas, 'SKILL.md'), documentPath);
  const report = await runNight({
    tasks,
    documentPath,
    nightDirectory: path.join(workDirectory, 'night'),
    workingDirectory: workDirectory,
    // The simulated backend is this package's dev dependency; a user installs the backends they name.
    resolver: createPackageResolver({ workingDirectory: workDirectory, fallbackDirectories: [packageDirectory] }),
    overrides,
    dryRun: true,
  });
  return { report, documentPath };
}

async function personaTasks(persona: string): Promise<TaskRecord[]> {
  return (await readTaskFile(path.join(personas, `${persona}.tasks.json`))).file.tasks;
}

async function personaNight(persona: string, overrides: string[] = []) {
  return nightOn(await personaTasks(persona), overrides);
}

describe('one night on the simulated model, the personas of the original', () => {
  test('the researcher: validation rises in one night, the two rules are learned, the document on disk is untouched', async () => {
    const { report, documentPath } = await personaNight('researcher');
    expect(report.outcome).toBe('accepted');
    expect(report.tasks.bySplit).toEqual({ train: 6, val: 6, test: 0 });
    // The simulated target drops the arXiv: prefix and the answer tags until a rule says otherwise:
    // hard 0, soft 11/18 on validation (the original's mock: 0.3333), then every task right.
    expect(report.validation?.before.hard).toBe(0);
    expect(report.validation?.before.soft).toBeCloseTo(11 / 18, 10);
    expect(report.validation?.before.score).toBeCloseTo(11 / 36, 10);
    expect(report.validation?.after).toEqual({ score: 1, hard: 1, soft: 1 });
    expect(report.rules.added.some((rule) => /arXiv:/.test(rule))).toBe(true);
    expect(report.rules.added.some((rule) => /<answer>/.test(rule))).toBe(true);
    expect(report.wouldStage?.document).toContain('<!-- skillopt-sleep:learned start -->');
    expect(report.wouldStage?.document.startsWith(await readFile(path.join(personas, 'SKILL.md'), 'utf8'))).toBe(true);
    expect(await readFile(documentPath, 'utf8')).toBe(await readFile(path.join(personas, 'SKILL.md'), 'utf8'));
    expect(report.gateDecisions).toHaveLength(1);
    expect(report.gateDecisions[0]?.accepted).toBe(true);
    expect(report.usage?.byPurpose.replay).toBeGreaterThan(0);
  });

  test('the programmer: validation rises in one night and the commit rule is learned', async () => {
    const { report } = await personaNight('programmer');
    expect(report.outcome).toBe('accepted');
    // Past-tense subjects keep every word of the reference as a substring (soft 1) but fail the exact match.
    expect(report.validation?.before).toEqual({ score: 0.5, hard: 0, soft: 1 });
    expect(report.validation?.after).toEqual({ score: 1, hard: 1, soft: 1 });
    expect(report.rules.added).toHaveLength(1);
    expect(report.wouldStage?.document).toContain(`- ${report.rules.added[0]}`);
  });

  test('test tasks are scored under the rules before and after, and reported without deciding anything', async () => {
    const researcher = await personaTasks('researcher');
    // Two of the six training tasks held out as test tasks.
    const trainIds = researcher.filter((task) => task.split === 'train').map((task) => task.id);
    const { report } = await nightOn(researcher.map((task) => (trainIds.slice(0, 2).includes(task.id) ? { ...task, split: 'test' as const } : task)));
    expect(report.tasks.bySplit).toEqual({ train: 4, val: 6, test: 2 });
    expect(report.outcome).toBe('accepted');
    expect(report.test).toEqual({ before: { hard: 0, soft: expect.any(Number) }, after: { hard: 1, soft: 1 }, scored: 2 });
  });

  test("rubric tasks are graded by the LLM judge, whose calls are in the night's ledger", async () => {
    const [base] = await personaTasks('programmer');
    const rubricTask = (id: string, split: 'train' | 'val'): TaskRecord => ({
      ...base!,
      id,
      split,
      intent: `Summarise release ${id}`,
      referenceKind: 'rubric',
      reference: `names the release ${id} and its date`,
      tags: [],
    });
    const { report } = await nightOn([rubricTask('r1', 'train'), rubricTask('r2', 'train'), rubricTask('r3', 'val'), rubricTask('r4', 'val')]);
    expect(report.usage?.byPurpose.judge).toBe(report.usage?.byPurpose.replay);
    const ledger = (await readFile(path.join(report.runDirectory as string, 'ledger.jsonl'), 'utf8')).split('\n').filter((line) => line.includes('"judge"'));
    expect(ledger.length).toBeGreaterThan(0);
  });

  test('a backend that keeps failing excludes its tasks and fails the night with its cause, never a score', async () => {
    const failing = ['backends.sim.latency_ms=30', 'backends.sim.timeout_ms=1', 'run.retries=0'];
    await expect(personaNight('programmer', failing)).rejects.toThrow(/excluded/);
  });

  test('a paired gate that stops early is marked partial, its scores over the tasks it saw; the validation scores cover every task', async () => {
    const { report } = await personaNight('researcher', ['evaluation.gate_strategy=paired', 'evaluation.paired_chunk_size=1']);
    expect(report.outcome).toBe('accepted');
    expect(report.gateDecisions).toEqual([expect.objectContaining({ strategy: 'paired', accepted: true, partial: true, itemsTotal: 6 })]);
    expect(report.gateDecisions[0]!.itemsEvaluated).toBeLessThan(6);
    expect(report.validation?.after).toEqual({ score: 1, hard: 1, soft: 1 });
    expect(renderNightReport(report)).toContain(`(stopped early: scores over ${report.gateDecisions[0]!.itemsEvaluated} of 6 validation tasks)`);
  });

  test('a harmful rule is rejected by the gate: with every reflection proposing one, nothing would be staged', async () => {
    const { report } = await personaNight('programmer', ['backends.sim.harmful_rule_rate=1', 'backends.sim.useless_rule_rate=0']);
    expect(report.outcome).toBe('rejected');
    expect(report.gateDecisions[0]?.accepted).toBe(false);
    expect(report.validation?.after).toEqual(report.validation?.before);
    expect(report.rules.after).toEqual([]);
    expect(report.wouldStage).toBeNull();
  });

  test('the negative control: tasks mined heuristically from synthetic transcripts carry no reference, so the night cannot learn and stages nothing', async () => {
    const claudeHome = path.join(workDirectory, 'claude');
    const folder = path.join(claudeHome, 'projects', '-home-user-project');
    await mkdir(folder, { recursive: true });
    const requests = ['fix the flaky login test', 'add a dark mode toggle to settings', 'why does the build fail on CI', 'rename the user service'];
    for (const [index, request] of requests.entries()) {
      const sessionId = `c0ffee00-0000-4000-8000-00000000000${index}`;
      const common = { cwd: '/home/user/project', sessionId, timestamp: `2026-11-0${index + 1}T10:00:00.000Z` };
      const lines = [
        { type: 'user', uuid: `u-${index}`, parentUuid: null, message: { role: 'user', content: request }, ...common },
        {
          type: 'assistant',
          uuid: `a-${index}`,
          parentUuid: `u-${index}`,
          message: { role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
          ...common,
        },
      ];
      await writeFile(path.join(folder, `${sessionId}.jsonl`), `${lines.map((line) => JSON.stringify(line)).join('\n')}\n`);
    }
    const harvest = harvestSessions({
      sources: [claudeCodeSource],
      sourcesRequested: true,
      scope: projectScope('all'),
      windowFor: () => ({}),
      locations: { claudeHome, sessionEndLog: path.join(workDirectory, 'session-ends.jsonl') },
      environment: {},
    });
    const sessions: HarvestedSession[] = [];
    for await (const session of harvest.sessions) sessions.push(session);
    const tasks = assignSplits(heuristicMine(sessions, { maxTasks: 10 }));
    expect(tasks).toHaveLength(4);
    const { report } = await nightOn(tasks);
    expect(report.outcome).toBe('refused');
    expect(report.refusal?.code).toBe('no-judgeable-tasks');
    expect(report.tasks.unjudgeable).toHaveLength(4);
    expect(report.tasks.replayed).toBe(0);
    expect(report.wouldStage).toBeNull();
    expect(report.usage).toBeUndefined();
  });
});
