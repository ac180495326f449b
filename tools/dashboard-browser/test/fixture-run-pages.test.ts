import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { listRuns, readRunReport, readSkillDiff, readStepReport, type RunListEntry, type RunReport } from '@skillopt/core';
import type { Browser, Page } from 'playwright-core';
import { findAccessibilityViolations } from './helpers/accessibility';
import { describeInBrowser, launchChromium, openPage } from './helpers/browser-session';
import { readPngContent } from './helpers/png-content';
import { startDashboard, trainDemo, type RunningDashboard } from './helpers/skillopt-processes';

const SCREENSHOTS = path.join(__dirname, '..', 'test-results', 'screenshots');

/** The raw number an element shows (its data-value), as JSON. */
async function shownValue(page: Page, selector: string): Promise<unknown> {
  const raw = await page.locator(selector).first().getAttribute('data-value');
  if (raw === null) throw new Error(`${selector} has no data-value`);
  return JSON.parse(raw) as unknown;
}

/** Takes a screenshot into the test output folder and checks that it shows a rendered page, not a blank one. */
async function screenshot(page: Page, name: string): Promise<void> {
  const file = path.join(SCREENSHOTS, `${name}.png`);
  const png = await page.screenshot({ path: file, fullPage: false });
  const content = readPngContent(png);
  expect(content.width).toBe(1280);
  // Text, tables and charts: many colours and a good share of pixels off the background.
  expect(content.distinctColours).toBeGreaterThan(16);
  expect(content.foregroundShare).toBeGreaterThan(0.02);
}

async function expectAccessible(page: Page): Promise<void> {
  const violations = await findAccessibilityViolations(page);
  expect(violations).toEqual([]);
}

describeInBrowser('the dashboard on a finished run', (chromium) => {
  let folder: string;
  let dashboard: RunningDashboard;
  let browser: Browser;
  let page: Page;
  let entry: RunListEntry;
  let report: RunReport;

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'skillopt-dashboard-'));
    rmSync(SCREENSHOTS, { recursive: true, force: true });
    mkdirSync(SCREENSHOTS, { recursive: true });
    trainDemo(path.join(folder, 'demo'));
    // A directory that claims to be a run but whose files are damaged: listed with why.
    mkdirSync(path.join(folder, 'damaged'));
    writeFileSync(path.join(folder, 'damaged', 'runtime_state.json'), '{ not json');
    const runs = await listRuns(folder);
    const found = runs.find((run): run is RunListEntry => run.kind === 'run' && run.name === 'demo');
    if (found === undefined) throw new Error('the demo run is not listed');
    entry = found;
    report = await readRunReport(path.join(folder, 'demo'), folder);
    dashboard = await startDashboard(folder);
    browser = await launchChromium(chromium);
    page = await openPage(browser);
  });

  afterAll(async () => {
    await browser?.close();
    expect(await dashboard?.stop()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('lists the runs with the run reader’s numbers, and a damaged one with its problem', async () => {
    await page.goto(dashboard.url);
    const row = `[data-testid="run-row"][data-run-name="demo"]`;
    await page.waitForSelector(row);
    expect(await shownValue(page, `${row} [data-testid="run-validation-initial"]`)).toBe(entry.validation.initial);
    expect(await shownValue(page, `${row} [data-testid="run-validation-best"]`)).toBe(entry.validation.best);
    expect(await shownValue(page, `${row} [data-testid="run-test-initial"]`)).toBe(entry.test?.initial);
    expect(await shownValue(page, `${row} [data-testid="run-test-best"]`)).toBe(entry.test?.best);
    expect(await shownValue(page, `${row} [data-testid="run-cost"]`)).toBe(entry.cost.usd);
    expect(await shownValue(page, `${row} [data-testid="run-steps"]`)).toBe(entry.stepsDone);
    expect(await shownValue(page, `${row} [data-testid="run-duration"]`)).toBe(entry.durationMs);
    const bestText = await page.locator(`${row} [data-testid="run-validation-best"]`).textContent();
    expect(bestText).toContain(`${((entry.validation.best ?? 0) * 100).toFixed(1)}%`);
    expect(await page.locator(`${row} [data-testid="run-status"]`).textContent()).toContain('finished');
    expect(await page.locator(`${row} [data-testid="run-environment"]`).textContent()).toContain('searchqa');
    expect(await page.locator('body').textContent()).toContain('damaged');
    await expectAccessible(page);
    await screenshot(page, 'runs');
  });

  it('is usable from the keyboard: tabbing to a run and pressing Enter opens it', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('[data-testid="run-row"]');
    let focused = '';
    for (let presses = 0; presses < 40 && !focused.includes('#/runs/demo'); presses += 1) {
      await page.keyboard.press('Tab');
      focused = await page.evaluate(() => (document.activeElement instanceof HTMLAnchorElement ? document.activeElement.href : ''));
    }
    expect(focused).toContain('#/runs/demo');
    await page.keyboard.press('Enter');
    await page.waitForSelector('[data-testid="step-row"]');
    expect(new URL(page.url()).hash).toBe('#/runs/demo');
  });

  it('shows the run: one row per step with its outcome, rate and gate scores, the calls by role and the charts', async () => {
    await page.goto(`${dashboard.url}#/runs/demo`);
    await page.waitForSelector('[data-testid="step-row"]');
    expect(await page.locator('[data-testid="step-row"]').count()).toBe(report.steps.length);
    for (const point of report.steps) {
      const row = `[data-testid="step-row"][data-step="${point.step}"]`;
      expect(await page.locator(`${row} [data-testid="step-outcome"]`).getAttribute('data-value')).toBe(point.outcome);
      expect(await shownValue(page, `${row} [data-testid="step-learning-rate"]`)).toBe(point.learningRate);
      expect(await shownValue(page, `${row} [data-testid="step-candidate-score"]`)).toBe(point.gate?.candidateScore ?? null);
      expect(await shownValue(page, `${row} [data-testid="step-incumbent-score"]`)).toBe(point.gate?.incumbentScore ?? null);
      expect(await shownValue(page, `${row} [data-testid="step-best-score"]`)).toBe(point.bestScore);
    }
    expect(await shownValue(page, '[data-testid="run-best-score"]')).toBe(report.run.validation.best);
    expect(await shownValue(page, '[data-testid="run-initial-score"]')).toBe(report.run.validation.initial);
    expect(await shownValue(page, '[data-testid="run-cost-total"]')).toBe(report.usage.overall.costUsd);
    expect(await shownValue(page, '[data-testid="run-latency-slots"]')).toBe(report.latencySlots);
    for (const [role, totals] of Object.entries(report.usage.byRole)) {
      const row = `[data-testid="role-row"][data-role="${role}"]`;
      expect(await shownValue(page, `${row} [data-testid="role-calls"]`)).toBe(totals.calls);
      expect(await shownValue(page, `${row} [data-testid="role-cost"]`)).toBe(totals.costUsd);
    }
    for (const chart of ['chart-validation', 'chart-learning-rate', 'chart-skill-length', 'chart-cost'])
      expect(await page.locator(`[data-testid="${chart}"] canvas`).count()).toBeGreaterThan(0);
    expect(await page.locator('[data-testid="run-status-banner"]').textContent()).toContain('finished');
    await expectAccessible(page);
    await screenshot(page, 'run');
  });

  it('shows a rejected step: the proposals, the selection, the applied edits and the gate with the flipped items', async () => {
    const rejected = report.steps.find((point) => point.outcome === 'rejected');
    if (rejected === undefined) throw new Error('the demo run has no rejected step');
    const step = await readStepReport(path.join(folder, 'demo'), rejected.step);
    await page.goto(`${dashboard.url}#/runs/demo/steps/${rejected.step}`);
    await page.waitForSelector('[data-testid="gate-decision"]');
    expect(await page.locator('[data-testid="step-title"]').textContent()).toContain(String(rejected.step));
    expect(await page.locator('[data-testid="proposal"]').count()).toBe(step?.proposals.length);
    expect(await page.locator('[data-testid="proposed-edit"]').count()).toBe(step?.proposals.reduce((sum, proposal) => sum + proposal.edits.length, 0));
    expect(await page.locator('[data-testid="selected-edit"]').count()).toBe(step?.selection?.edits.length);
    expect(await page.locator('[data-testid="applied-edit"]').count()).toBe(step?.applied?.length);
    expect(await page.locator('[data-testid="gate-decision"]').getAttribute('data-accepted')).toBe('false');
    expect(await shownValue(page, '[data-testid="gate-candidate-score"]')).toBe(step?.gate?.candidateScore);
    expect(await shownValue(page, '[data-testid="gate-incumbent-score"]')).toBe(step?.gate?.incumbentScore);
    expect(await page.locator('[data-testid="flipped-item"][data-change="regressed"]').count()).toBe(step?.gate?.regressed.length);
    expect(await page.locator('[data-testid="flipped-item"][data-change="improved"]').count()).toBe(step?.gate?.improved.length);
    const rationale = step?.proposals.flatMap((proposal) => proposal.edits)[0]?.rationale ?? '';
    expect(await page.locator('main').textContent()).toContain(rationale);
    await expectAccessible(page);
    await screenshot(page, 'step');
  });

  it('diffs two skill versions line by line', async () => {
    const first = report.skillVersions[0];
    const last = report.skillVersions.at(-1);
    if (first === undefined || last === undefined || first === last) throw new Error('the demo run has one skill version only');
    const diff = await readSkillDiff(path.join(folder, 'demo'), first.id, last.id);
    await page.goto(`${dashboard.url}#/runs/demo/diff?from=${first.id}&to=${last.id}`);
    await page.waitForSelector('[data-testid="diff-line"]');
    expect(await shownValue(page, '[data-testid="diff-added-count"]')).toBe(diff?.added);
    expect(await shownValue(page, '[data-testid="diff-removed-count"]')).toBe(diff?.removed);
    expect(await page.locator('[data-testid="diff-line"]').count()).toBe(diff?.lines.length);
    expect(await page.locator('[data-testid="diff-line"][data-kind="added"]').count()).toBe(diff?.added);
    await expectAccessible(page);
    await screenshot(page, 'diff');
  });
});
