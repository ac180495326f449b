import { execFile } from 'node:child_process';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { listRuns, readRunReport, readSkillDiff, readStepReport, type RunReport, type SkillDiff, type StepReport } from '@skillopt/core';
import { renderToString } from 'react-dom/server';
import type { RunsResponse } from '../src/api/api-types.js';
import { formatCost, formatScore } from '../src/format/format.js';
import { DiffView } from '../src/pages/diff-view.js';
import { RunView } from '../src/pages/run-view.js';
import { RunsView } from '../src/pages/runs-view.js';
import { StepView } from '../src/pages/step-view.js';
import { diffHref, runHref, stepHref } from '../src/router/hash-route.js';
import { elementsWithTestId, elementWithTestId, linkTargets, textOf } from './html-elements.js';

const runCommand = path.resolve(__dirname, '..', '..', 'cli', 'bin', 'run.js');

let temporaryDirectory: string;
let folder: string;
let runs: RunsResponse;
let report: RunReport;
let acceptedStep: StepReport;
let rejectedStep: StepReport;

// One demo training on the simulated model (about two seconds, no network), read with core's run reader as the API serves it.
beforeAll(async () => {
  temporaryDirectory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-dashboard-'));
  folder = path.join(temporaryDirectory, 'runs');
  await promisify(execFile)(process.execPath, [runCommand, 'demo', '--out', path.join(folder, 'demo')], {
    cwd: temporaryDirectory,
    env: { ...process.env, HOME: temporaryDirectory, NO_COLOR: '1' },
  });
  runs = { folder, runs: await listRuns(folder) };
  report = await readRunReport(path.join(folder, 'demo'), folder);
  const stepOf = async (outcome: string) => {
    const point = report.steps.find((candidate) => candidate.outcome === outcome);
    if (point === undefined) throw new Error(`the demo run has no ${outcome} step`);
    return (await readStepReport(path.join(folder, 'demo'), point.step))!;
  };
  acceptedStep = await stepOf('accepted');
  rejectedStep = await stepOf('rejected');
}, 120_000);

afterAll(async () => {
  await rm(temporaryDirectory, { recursive: true, force: true });
});

describe('the runs page', () => {
  it('shows each run with its status, scores, cost, steps and duration, named by a link to it', () => {
    const html = renderToString(<RunsView data={runs} />);
    const run = runs.runs[0]!;
    if (run.kind !== 'run') throw new Error('the demo run is unreadable');
    const rows = elementsWithTestId(html, 'run-row');
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attributes['data-run-name']).toBe('demo');
    expect(html).toContain(`<a href="${runHref('demo')}">demo</a>`);
    expect(elementWithTestId(html, 'run-status').text).toBe('finished');
    expect(elementWithTestId(html, 'run-environment').text).toBe('searchqa');
    const best = elementWithTestId(html, 'run-validation-best');
    expect(best.attributes['data-value']).toBe(JSON.stringify(run.validation.best));
    expect(best.text).toBe(formatScore(run.validation.best));
    expect(best.text).toBe('96.7%');
    expect(elementWithTestId(html, 'run-validation-initial').attributes['data-value']).toBe(JSON.stringify(run.validation.initial));
    expect(elementWithTestId(html, 'run-test-initial').text).toBe(formatScore(run.test!.initial));
    expect(elementWithTestId(html, 'run-test-best').attributes['data-value']).toBe(JSON.stringify(run.test!.best));
    expect(elementWithTestId(html, 'run-cost').text).toBe(formatCost(run.cost.usd, run.cost.unpricedCalls));
    expect(elementWithTestId(html, 'run-steps').attributes['data-value']).toBe('10');
    expect(elementWithTestId(html, 'run-steps').text).toBe('10 / 10');
    expect(elementWithTestId(html, 'run-steps-total').attributes['data-value']).toBe('10');
    expect(elementWithTestId(html, 'run-duration').attributes['data-value']).toBe(JSON.stringify(run.durationMs));
    expect(textOf(html)).toContain('sim/sim-target (simulated)');
  });

  it('says so when the folder has no run', async () => {
    const empty = path.join(temporaryDirectory, 'empty');
    await mkdir(empty, { recursive: true });
    const html = renderToString(<RunsView data={{ folder: empty, runs: await listRuns(empty) }} />);
    expect(elementsWithTestId(html, 'run-row')).toHaveLength(0);
    expect(elementWithTestId(html, 'runs-empty').text).toContain(`No runs under ${empty}`);
  });

  it('shows a run that cannot be read with its problem, beside the others', async () => {
    const damaged = path.join(temporaryDirectory, 'damaged');
    await cp(path.join(folder, 'demo'), path.join(damaged, 'demo'), { recursive: true });
    await mkdir(path.join(damaged, 'broken'), { recursive: true });
    await writeFile(path.join(damaged, 'broken', 'runtime_state.json'), '{ not json');
    const listed = await listRuns(damaged);
    const html = renderToString(<RunsView data={{ folder: damaged, runs: listed }} />);
    const rows = elementsWithTestId(html, 'run-row').map((row) => row.attributes['data-run-name']);
    expect(rows.sort()).toEqual(['broken', 'demo']);
    const unreadable = listed.find((entry) => entry.kind === 'unreadable');
    expect(unreadable).toBeDefined();
    expect(elementWithTestId(html, 'run-problem').text).toContain(unreadable!.kind === 'unreadable' ? unreadable!.problem : '');
    expect(elementsWithTestId(html, 'run-status').map((cell) => cell.attributes['data-value'])).toContain('unreadable');
  });
});

describe('the run page', () => {
  it('shows the status, the best and initial validation score, the cost and the latency slots', () => {
    const html = renderToString(<RunView report={report} />);
    expect(elementWithTestId(html, 'run-status-banner').text).toBe('This run is finished');
    const best = elementWithTestId(html, 'run-best-score');
    expect(best.attributes['data-value']).toBe(JSON.stringify(report.run.validation.best));
    expect(best.text).toBe('96.7%');
    expect(elementWithTestId(html, 'run-initial-score').text).toBe(formatScore(report.run.validation.initial));
    expect(elementWithTestId(html, 'run-cost-total').attributes['data-value']).toBe(JSON.stringify(report.usage.overall.costUsd));
    expect(elementWithTestId(html, 'run-latency-slots').attributes['data-value']).toBe(JSON.stringify(report.latencySlots));
    expect(report.latencySlots).toBeGreaterThan(0);
  });

  it('has one row per step, with its outcome, learning rate and the gate scores, linked to the step', () => {
    const html = renderToString(<RunView report={report} />);
    const rows = elementsWithTestId(html, 'step-row');
    expect(rows.map((row) => Number(row.attributes['data-step']))).toEqual(report.steps.map((point) => point.step));
    expect(rows).toHaveLength(10);
    expect(elementsWithTestId(html, 'step-outcome').map((cell) => cell.attributes['data-value'])).toEqual(report.steps.map((point) => point.outcome));
    expect(elementsWithTestId(html, 'step-learning-rate').map((cell) => cell.attributes['data-value'])).toEqual(
      report.steps.map((point) => JSON.stringify(point.learningRate)),
    );
    expect(elementsWithTestId(html, 'step-candidate-score').map((cell) => cell.attributes['data-value'])).toEqual(
      report.steps.map((point) => JSON.stringify(point.gate?.candidateScore ?? null)),
    );
    expect(elementsWithTestId(html, 'step-incumbent-score').map((cell) => cell.text)).toEqual(
      report.steps.map((point) => formatScore(point.gate?.incumbentScore)),
    );
    expect(elementsWithTestId(html, 'step-best-score').map((cell) => cell.attributes['data-value'])).toEqual(
      report.steps.map((point) => JSON.stringify(point.bestScore)),
    );
    for (const point of report.steps) expect(linkTargets(html)).toContain(stepHref('demo', point.step));
  });

  it('counts each step’s latency slots as the difference of the run’s running count', () => {
    const html = renderToString(<RunView report={report} />);
    const slots = elementsWithTestId(html, 'step-latency-slots').map((cell) => Number(cell.attributes['data-value']));
    const cumulative = report.steps.map((point) => point.latencySlots!);
    expect(slots).toEqual(cumulative.map((value, index) => value - (index === 0 ? 0 : cumulative[index - 1]!)));
    expect(slots.reduce((sum, value) => sum + value, 0)).toBe(cumulative.at(-1));
  });

  it('shows the calls by role, the charts with their numbers, the exclusions and the skill versions', () => {
    const html = renderToString(<RunView report={report} />);
    const roles = elementsWithTestId(html, 'role-row');
    expect(roles.map((row) => row.attributes['data-role']).sort()).toEqual(Object.keys(report.usage.byRole).sort());
    expect(elementsWithTestId(html, 'role-calls').map((cell) => Number(cell.attributes['data-value']))).toEqual(
      Object.keys(report.usage.byRole)
        .sort()
        .map((role) => report.usage.byRole[role]!.calls),
    );
    expect(elementWithTestId(html, 'role-total-calls').attributes['data-value']).toBe(String(report.usage.overall.calls));
    expect(elementsWithTestId(html, 'role-cost')).toHaveLength(roles.length);
    expect(elementWithTestId(html, 'role-total-cost').text).toBe(formatCost(report.usage.overall.costUsd, report.usage.overall.unpricedCalls));
    for (const chart of ['chart-validation', 'chart-learning-rate', 'chart-skill-length', 'chart-cost'])
      expect(elementsWithTestId(html, chart)).toHaveLength(1);
    const accepted = report.steps.filter((point) => point.gate?.accepted === true).length;
    const rejected = report.steps.filter((point) => point.gate?.accepted === false).length;
    expect(html).toContain(`accepted ${accepted} candidates (triangles) and rejected ${rejected} (crosses)`);
    const acceptedMarkers = elementsWithTestId(html, 'chart-value').filter((cell) => cell.attributes['data-series'] === 'accepted candidate');
    expect(acceptedMarkers.filter((cell) => cell.attributes['data-value'] !== 'null')).toHaveLength(accepted);
    expect(elementsWithTestId(html, 'exclusion-row')).toHaveLength(report.exclusions.length);
    expect(elementsWithTestId(html, 'skill-version-row').map((row) => row.attributes['data-version-id'])).toEqual(
      report.skillVersions.map((version) => version.id),
    );
    expect(linkTargets(html)).toContain(diffHref('demo', report.skillVersions[0]!.id, report.skillVersions[1]!.id));
  });

  it('says how to resume a stopped run', () => {
    const resumeCommand = `skillopt train --resume ${path.join(folder, 'demo')}`;
    const stopped: RunReport = {
      ...report,
      run: { ...report.run, status: 'stopped', stop: { reason: 'killed', message: 'its process no longer runs', resumeCommand } },
    };
    const banner = elementWithTestId(renderToString(<RunView report={stopped} />), 'run-status-banner');
    expect(banner.attributes['data-status']).toBe('stopped');
    expect(banner.text).toContain(`This run is stopped: killed — resume with ${resumeCommand}`);
  });

  it('says that a run in progress is followed live, and when it has no step yet', () => {
    const starting: RunReport = { ...report, run: { ...report.run, status: 'in progress', stop: null }, steps: [] };
    const html = renderToString(<RunView report={starting} connection="open" />);
    expect(elementWithTestId(html, 'run-status-banner').text).toBe('This run is in progress (live)');
    expect(elementWithTestId(html, 'no-steps').text).toBe('No step has finished yet.');
    expect(elementsWithTestId(html, 'step-row')).toHaveLength(0);
  });
});

describe('the step page', () => {
  it('shows an accepted step’s proposals, selection, applied edits and the gate’s decision with both scores', () => {
    const html = renderToString(<StepView runName="demo" report={acceptedStep} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    expect(elementWithTestId(html, 'step-title').text).toBe(`Step ${acceptedStep.record.step} of run demo`);
    expect(elementsWithTestId(html, 'proposal')).toHaveLength(acceptedStep.proposals.length);
    expect(elementsWithTestId(html, 'proposed-edit')).toHaveLength(acceptedStep.proposals.reduce((sum, proposal) => sum + proposal.edits.length, 0));
    expect(elementsWithTestId(html, 'selected-edit')).toHaveLength(acceptedStep.selection!.edits.length);
    expect(elementsWithTestId(html, 'applied-edit').map((item) => item.attributes['data-status'])).toEqual(acceptedStep.applied!.map((item) => item.status));
    expect(elementWithTestId(html, 'gate-decision').attributes['data-accepted']).toBe('true');
    const candidate = elementWithTestId(html, 'gate-candidate-score');
    expect(candidate.attributes['data-value']).toBe(JSON.stringify(acceptedStep.gate!.candidateScore));
    expect(candidate.text).toBe(formatScore(acceptedStep.gate!.candidateScore));
    expect(elementWithTestId(html, 'gate-incumbent-score').text).toBe(formatScore(acceptedStep.gate!.incumbentScore));
    const flipped = elementsWithTestId(html, 'flipped-item');
    expect(flipped.filter((item) => item.attributes['data-change'] === 'improved')).toHaveLength(acceptedStep.gate!.improved.length);
    expect(flipped.filter((item) => item.attributes['data-change'] === 'regressed')).toHaveLength(acceptedStep.gate!.regressed.length);
    expect(acceptedStep.gate!.improved.length).toBeGreaterThan(0);
  });

  it('links an accepted step’s version to its diff against the version before it, and to the steps around it', () => {
    const html = renderToString(<StepView runName="demo" report={acceptedStep} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    const versionIds = report.skillVersions.map((version) => version.id);
    const previous = versionIds[versionIds.indexOf(acceptedStep.acceptedVersionId!) - 1]!;
    expect(elementWithTestId(html, 'accepted-diff-link').attributes.href).toBe(diffHref('demo', previous, acceptedStep.acceptedVersionId!));
    const step = acceptedStep.record.step;
    if (step > 1) expect(linkTargets(html)).toContain(stepHref('demo', step - 1));
    expect(linkTargets(html)).toContain(stepHref('demo', step + 1));
  });

  it('shows a rejected step’s gate without a version to diff', () => {
    const html = renderToString(<StepView runName="demo" report={rejectedStep} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    expect(elementWithTestId(html, 'gate-decision').attributes['data-accepted']).toBe('false');
    expect(elementWithTestId(html, 'gate-candidate-score').attributes['data-value']).toBe(JSON.stringify(rejectedStep.gate!.candidateScore));
    expect(elementsWithTestId(html, 'accepted-diff-link')).toHaveLength(0);
    expect(elementsWithTestId(html, 'step-exclusion')).toHaveLength(rejectedStep.exclusions.length);
    expect(elementsWithTestId(html, 'step-stage-failure')).toHaveLength(rejectedStep.stageFailures.length);
  });

  it('marks a candidate score the early-stopping gate left partial, in the step table and on the step page', () => {
    const rejectedPoint = report.steps.find((point) => point.outcome === 'rejected')!;
    const partialPoint = { ...rejectedPoint, gate: { ...rejectedPoint.gate!, partial: { itemsEvaluated: 12, itemsTotal: 30 } } };
    const runHtml = renderToString(<RunView report={{ ...report, steps: report.steps.map((point) => (point === rejectedPoint ? partialPoint : point)) }} />);
    expect(elementsWithTestId(runHtml, 'step-candidate-partial').map((element) => element.text)).toEqual(['(partial, 12 of 30 items)']);
    const partialStep: StepReport = { ...rejectedStep, gate: { ...rejectedStep.gate!, partial: true, itemsEvaluated: 12, itemsTotal: 30 } };
    const stepHtml = renderToString(<StepView runName="demo" report={partialStep} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    expect(elementWithTestId(stepHtml, 'gate-candidate-partial').text).toBe('(partial, 12 of 30 items)');
    const fullHtml = renderToString(<StepView runName="demo" report={rejectedStep} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    expect(elementsWithTestId(fullHtml, 'gate-candidate-partial')).toHaveLength(0);
  });

  it('has no next step after the last', async () => {
    const last = (await readStepReport(path.join(folder, 'demo'), report.run.stepsDone))!;
    const html = renderToString(<StepView runName="demo" report={last} stepsDone={report.run.stepsDone} skillVersions={report.skillVersions} />);
    expect(linkTargets(html)).not.toContain(stepHref('demo', report.run.stepsDone + 1));
    expect(linkTargets(html)).toContain(stepHref('demo', report.run.stepsDone - 1));
    expect(elementsWithTestId(html, 'gate-decision')).toHaveLength(last.gate === null ? 0 : 1);
  });
});

describe('the skill diff page', () => {
  let diff: SkillDiff;
  beforeAll(async () => {
    const versions = report.skillVersions;
    diff = (await readSkillDiff(path.join(folder, 'demo'), versions[0]!.id, versions.at(-1)!.id))!;
  });

  it('shows every line with its kind, and the added and removed counts', () => {
    const html = renderToString(<DiffView runName="demo" diff={diff} skillVersions={report.skillVersions} />);
    const lines = elementsWithTestId(html, 'diff-line');
    expect(lines.map((line) => line.attributes['data-kind'])).toEqual(diff.lines.map((line) => line.kind));
    expect(elementWithTestId(html, 'diff-added-count').attributes['data-value']).toBe(String(diff.added));
    expect(elementWithTestId(html, 'diff-removed-count').attributes['data-value']).toBe(String(diff.removed));
    expect(diff.added).toBeGreaterThan(0);
    expect(lines.filter((line) => line.attributes['data-kind'] === 'added')).toHaveLength(diff.added);
  });

  it('marks added and removed lines with a sign, and numbers them in the old and the new text', () => {
    const html = renderToString(<DiffView runName="demo" diff={diff} />);
    const addedIndex = diff.lines.findIndex((line) => line.kind === 'added');
    const added = diff.lines[addedIndex]!;
    const row = elementsWithTestId(html, 'diff-line')[addedIndex]!;
    expect(row.text).toBe(`${added.newLine} +added ${added.text}`.replace(/\s+/g, ' ').trim());
    expect(elementsWithTestId(html, 'diff-new-line')[addedIndex]!.attributes['data-value']).toBe(String(added.newLine));
    expect(elementsWithTestId(html, 'diff-old-line')[addedIndex]!.attributes['data-value']).toBe('null');
  });
});
