import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunReport } from '@skillopt/core';
import type { Browser, Page } from 'playwright-core';
import { findAccessibilityViolations } from './helpers/accessibility';
import { describeInBrowser, launchChromium, openPage } from './helpers/browser-session';
import { startDashboard, startDemo, type RunningDashboard } from './helpers/skillopt-processes';

// Slow enough that a step takes a good part of a second, so the page sees the run between steps.
const LATENCY_MS = 150;
const WAIT = { timeout: 150_000 };

/** Marks the document, so a test can tell that the page updated itself rather than being loaded again. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    (window as unknown as { dashboardTestMark: boolean }).dashboardTestMark = true;
  });
}

async function documentIsTheMarkedOne(page: Page): Promise<boolean> {
  return page.evaluate(() => (window as unknown as { dashboardTestMark?: boolean }).dashboardTestMark === true);
}

describeInBrowser('the dashboard watching runs as they go', (chromium) => {
  let folder: string;
  let dashboard: RunningDashboard;
  let browser: Browser;
  let page: Page;
  const trainings: ChildProcess[] = [];

  beforeAll(async () => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'skillopt-dashboard-live-'));
    dashboard = await startDashboard(folder);
    browser = await launchChromium(chromium);
    page = await openPage(browser);
  });

  afterAll(async () => {
    for (const training of trainings) training.kill('SIGKILL');
    await browser?.close();
    expect(await dashboard?.stop()).toBe(0);
    rmSync(folder, { recursive: true, force: true });
  });

  it('shows a new run on the runs page, then its steps as they finish, without reloading, until it finishes', async () => {
    await page.goto(dashboard.url);
    await page.waitForSelector('main');
    await markDocument(page);
    const training = startDemo(path.join(folder, 'live'), LATENCY_MS);
    trainings.push(training);
    const finished = new Promise<number | null>((resolve) => training.once('exit', resolve));

    await page.waitForSelector('[data-testid="run-row"][data-run-name="live"]', WAIT);
    expect(await documentIsTheMarkedOne(page)).toBe(true);

    await page.click('[data-testid="run-row"][data-run-name="live"] a');
    await page.waitForSelector('[data-testid="step-row"]', WAIT);
    const seen = await page.locator('[data-testid="step-row"]').count();
    expect(await page.locator('[data-testid="run-status-banner"]').textContent()).toContain('in progress');
    // The next step's row arrives by itself.
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="step-row"]').length > count, seen, WAIT);
    expect(await documentIsTheMarkedOne(page)).toBe(true);
    expect(await findAccessibilityViolations(page)).toEqual([]);

    expect(await finished).toBe(0);
    await page.waitForFunction(() => document.querySelector('[data-testid="run-status-banner"]')?.textContent?.includes('finished') === true, undefined, WAIT);
    const report = await readRunReport(path.join(folder, 'live'), folder);
    await page.waitForFunction((count) => document.querySelectorAll('[data-testid="step-row"]').length === count, report.steps.length, WAIT);
    const best = await page.locator('[data-testid="run-best-score"]').getAttribute('data-value');
    expect(JSON.parse(best ?? 'null')).toBe(report.run.validation.best);
    expect(await documentIsTheMarkedOne(page)).toBe(true);
  });

  it('shows a killed run as stopped, not in progress, without reloading', async () => {
    const training = startDemo(path.join(folder, 'killed'), LATENCY_MS);
    trainings.push(training);
    await page.goto(dashboard.url);
    await page.click('[data-testid="run-row"][data-run-name="killed"] a', WAIT);
    await page.waitForSelector('[data-testid="step-row"]', WAIT);
    await markDocument(page);
    expect(await page.locator('[data-testid="run-status-banner"]').textContent()).toContain('in progress');

    training.kill('SIGKILL');
    await new Promise((resolve) => training.once('exit', resolve));
    await page.waitForFunction(() => document.querySelector('[data-testid="run-status-banner"]')?.textContent?.includes('stopped') === true, undefined, WAIT);
    const banner = await page.locator('[data-testid="run-status-banner"]').textContent();
    expect(banner).toContain('killed');
    expect(banner).toContain('skillopt train --resume');
    expect(await documentIsTheMarkedOne(page)).toBe(true);

    await page.goto(dashboard.url);
    await page.waitForSelector('[data-testid="run-row"][data-run-name="killed"]');
    expect(await page.locator('[data-testid="run-row"][data-run-name="killed"] [data-testid="run-status"]').textContent()).toContain('stopped');
  });
});
