import { appendFileSync, cpSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import {
  listRuns,
  readEventsFileFrom,
  readLedgerFile,
  readRunHistory,
  readRunReport,
  readRunOverview,
  readSkillDiff,
  readSkillVersion,
  readStepReport,
  summariseEntries,
  train,
} from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, GOOD_RULE, trainingConfig } from '../training/scripted-training-doubles';
import { temporaryRunDirectories } from '../training/temporary-run-directories';

// The reports read a run trained before them, which a loaded machine slows many times over: the
// limit is there to catch a hang, not to time the run.
jest.setTimeout(300_000);

const runDirectory = temporaryRunDirectories('skillopt-run-report-');
const PRICE = { inputUsdPerMillionTokens: 1_000_000, outputUsdPerMillionTokens: 0, source: 'the test', asOf: '2026-12-01' };

/** A finished two-epoch run with priced target calls: a gate that accepts and one that rejects. */
async function finishedRun(): Promise<string> {
  const directory = runDirectory();
  await train({
    config: trainingConfig(),
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model: createScriptedTarget().model },
    optimizer: createScriptedOptimizer().model,
    runDirectory: directory,
    priceTable: [{ provider: 'test-double', modelId: 'scripted-target', ...PRICE }],
  });
  return directory;
}

let directory: string;
beforeAll(async () => {
  directory = await finishedRun();
});

describe('the run report', () => {
  it('has one point per committed step, with the step record’s scores and rates', async () => {
    const report = await readRunReport(directory);
    const history = await readRunHistory(directory, 100);
    expect(report.steps.map((point) => point.step)).toEqual(history.map((record) => record.step));
    for (const [index, record] of history.entries()) {
      const point = report.steps[index];
      expect(point?.outcome).toBe(record.outcome);
      expect(point?.currentScore).toBe(record.currentScore);
      expect(point?.bestScore).toBe(record.bestScore);
      if (record.outcome === 'accepted' || record.outcome === 'rejected') {
        expect(point?.gate).toMatchObject({
          accepted: record.gate.accepted,
          candidateScore: record.gate.candidateScore,
          incumbentScore: record.gate.incumbentScore,
        });
        expect(point?.learningRate).toBe(record.learningRate);
      } else expect(point?.gate).toBeNull();
    }
    expect(report.steps.some((point) => point.gate?.accepted === true)).toBe(true);
    expect(report.steps.some((point) => point.gate?.accepted === false)).toBe(true);
  });

  it('counts cost and calls up to each step from the ledger, ending at the ledger’s totals', async () => {
    const report = await readRunReport(directory);
    const totals = summariseEntries((await readLedgerFile(path.join(directory, 'ledger.jsonl'))).entries);
    const costs = report.steps.map((point) => point.cumulativeCostUsd);
    const calls = report.steps.map((point) => point.cumulativeCalls);
    expect(costs).toEqual([...costs].sort((a, b) => a - b));
    expect(calls).toEqual([...calls].sort((a, b) => a - b));
    expect(costs[0]).toBeGreaterThan(0);
    // The test split is evaluated after the last step: the run's total is above the last step's.
    expect(report.usage.overall.costUsd).toBeCloseTo(totals.overall.costUsd, 9);
    expect(report.usage.overall.costUsd).toBeGreaterThanOrEqual(costs.at(-1) ?? 0);
    expect(report.usage.byRole.target?.calls).toBe(totals.byRole.target?.calls);
    expect(report.usage.byRole.optimizer?.calls).toBe(totals.byRole.optimizer?.calls);
    expect(report.run.cost).toEqual({ usd: totals.overall.costUsd, calls: totals.overall.calls, unpricedCalls: totals.overall.unpricedCalls });
  });

  it('keeps the latency slots of each step and the skill length of the current skill', async () => {
    const report = await readRunReport(directory);
    const slots = report.steps.map((point) => point.latencySlots ?? -1);
    expect(slots.every((count) => count > 0)).toBe(true);
    expect(slots).toEqual([...slots].sort((a, b) => a - b));
    expect(report.latencySlots).toBeGreaterThanOrEqual(slots.at(-1) ?? 0);
    const summary = JSON.parse(readFileSync(path.join(directory, 'summary.json'), 'utf8')) as { latencySlots: number };
    expect(report.latencySlots).toBe(summary.latencySlots);
    const initial = readFileSync(path.join(directory, 'skills', 'skill_v0000.md'), 'utf8');
    const firstAccepted = report.steps.find((point) => point.outcome === 'accepted');
    expect(firstAccepted?.skillCharacters).toBe(
      readFileSync(path.join(directory, 'skills', `skill_v${String(firstAccepted?.step).padStart(4, '0')}.md`), 'utf8').length,
    );
    expect(report.steps[0]?.skillCharacters).toBe(report.steps[0]?.outcome === 'accepted' ? firstAccepted?.skillCharacters : initial.length);
  });

  it('lists the skill versions, each readable by its id, and diffs any two', async () => {
    const report = await readRunReport(directory);
    expect(report.skillVersions[0]).toMatchObject({ id: 'skill_v0000', kind: 'initial' });
    const last = report.skillVersions.at(-1);
    expect(last?.kind).not.toBe('initial');
    const version = await readSkillVersion(directory, last?.id ?? '');
    expect(version?.text).toContain(GOOD_RULE);
    expect(version?.characters).toBe(version?.text.length);
    const diff = await readSkillDiff(directory, 'skill_v0000', last?.id ?? '');
    expect(diff?.added).toBeGreaterThan(0);
    expect(diff?.lines.filter((line) => line.kind === 'added').map((line) => line.text)).toContain(GOOD_RULE);
    // Numbered on both sides: the old text's lines, then the new text's, in order.
    expect(diff?.lines.filter((line) => line.oldLine !== null).map((line) => line.oldLine)).toEqual(
      diff?.lines.filter((line) => line.kind !== 'added').map((_, index) => index + 1),
    );
    expect(await readSkillVersion(directory, 'skill_v9999')).toBeUndefined();
    expect(await readSkillDiff(directory, 'skill_v0000', '../summary')).toBeUndefined();
  });

  it('lists the runs of a folder with their scores, cost and duration', async () => {
    const folder = path.dirname(directory);
    const [entry] = await listRuns(folder);
    const overview = await readRunOverview(directory);
    expect(entry).toMatchObject({
      kind: 'run',
      name: 'run',
      status: 'finished',
      validation: { initial: overview.baselineScore, best: overview.bestScore },
      test: overview.test,
      stepsDone: overview.stepsDone,
    });
    expect(entry?.kind === 'run' && entry.durationMs).toBeGreaterThanOrEqual(0);
    expect(entry?.kind === 'run' && entry.startedAt).toMatch(/^\d{4}-/);
  });
});

describe('the step report', () => {
  it('has the proposals, the selection, how each edit applied and the gate with the items that flipped', async () => {
    const report = await readRunReport(directory);
    const rejected = report.steps.find((point) => point.outcome === 'rejected');
    const step = await readStepReport(directory, rejected?.step ?? 0);
    expect(step?.record.step).toBe(rejected?.step);
    expect(step?.proposals.length).toBeGreaterThan(0);
    expect(step?.proposals.flatMap((proposal) => proposal.edits).length).toBeGreaterThan(0);
    expect(step?.selection?.edits.length).toBeGreaterThan(0);
    expect(step?.applied?.every((application) => typeof application.status === 'string')).toBe(true);
    expect(step?.gate).toMatchObject({ accepted: false, candidateScore: rejected?.gate?.candidateScore, incumbentScore: rejected?.gate?.incumbentScore });
    // A candidate scored lower: some item regressed, and each flip carries both scores.
    expect(step?.gate?.regressed.length).toBeGreaterThan(0);
    for (const flip of step?.gate?.regressed ?? []) expect(flip.candidate).toBeLessThan(flip.incumbent);
    expect(step?.acceptedVersionId).toBeNull();

    const accepted = report.steps.find((point) => point.outcome === 'accepted');
    expect((await readStepReport(directory, accepted?.step ?? 0))?.acceptedVersionId).toBe(`skill_v${String(accepted?.step).padStart(4, '0')}`);
  });

  it('is undefined for a step the run has not committed', async () => {
    expect(await readStepReport(directory, 999)).toBeUndefined();
    expect(await readStepReport(directory, 0)).toBeUndefined();
    expect(await readStepReport(directory, 1.5)).toBeUndefined();
  });
});

describe('a killed session', () => {
  it('reads as stopped (killed) once its process is gone, and as in progress while it runs', async () => {
    const killed = runDirectory();
    cpSync(directory, killed, { recursive: true });
    // Cut the events after the last step-finished: the session never recorded its end.
    const events = readFileSync(path.join(killed, 'events.jsonl'), 'utf8').trimEnd().split('\n');
    const types = events.map((line) => (JSON.parse(line) as { type: string }).type);
    const lastStep = types.lastIndexOf('step-finished');
    writeFileSync(path.join(killed, 'events.jsonl'), `${events.slice(0, lastStep + 1).join('\n')}\n`);
    const lockOf = (pid: number) =>
      JSON.stringify({ lockId: 'a1', pid, hostname: os.hostname(), startedAt: new Date().toISOString(), command: 'skillopt train', purpose: 'training' });

    writeFileSync(path.join(killed, 'skillopt.lock'), lockOf(process.pid));
    expect((await readRunOverview(killed)).status).toBe('in progress');

    const ended = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], { encoding: 'utf8' });
    writeFileSync(path.join(killed, 'skillopt.lock'), lockOf(Number(ended.stdout)));
    const overview = await readRunOverview(killed);
    expect(overview.status).toBe('stopped');
    expect(overview.stop?.reason).toBe('killed');
    expect(overview.stop?.resumeCommand).toBe(`skillopt train --resume ${killed}`);

    writeFileSync(path.join(killed, 'skillopt.lock'), lockOf(process.pid).replace(os.hostname(), 'another-host'));
    expect((await readRunOverview(killed)).status).toBe('in progress');
  });
});

describe('reading events from an offset', () => {
  it('reads only what was appended, and leaves a line being written for the next read', async () => {
    const file = path.join(path.dirname(runDirectory()), 'events.jsonl');
    const event = (step: number) => `${JSON.stringify({ type: 'epoch-started', epoch: step, runId: 'r', timestamp: '2026-12-05T00:00:00.000Z' })}\n`;
    expect(await readEventsFileFrom(file, 0)).toMatchObject({ events: [], nextOffset: 0 });
    writeFileSync(file, event(1) + event(2));
    const first = await readEventsFileFrom(file, 0);
    expect(first.events.map((read) => read.type === 'epoch-started' && read.epoch)).toEqual([1, 2]);
    expect(first.nextOffset).toBe(Buffer.byteLength(event(1) + event(2)));
    const third = event(3);
    appendFileSync(file, third.slice(0, 20));
    const partial = await readEventsFileFrom(file, first.nextOffset);
    expect(partial).toMatchObject({ events: [], nextOffset: first.nextOffset, restarted: false });
    appendFileSync(file, `${third.slice(20)}not json\n`);
    const rest = await readEventsFileFrom(file, partial.nextOffset);
    expect(rest.events.map((read) => read.type === 'epoch-started' && read.epoch)).toEqual([3]);
    expect(rest.malformedLines).toHaveLength(1);
    writeFileSync(file, event(9));
    expect(await readEventsFileFrom(file, rest.nextOffset)).toMatchObject({ restarted: true, nextOffset: Buffer.byteLength(event(9)) });
  });
});
