import { chromium, type Browser, type Page } from 'playwright-core';
import type { LocatedChromium } from './debian-chromium';
import { locateDebianChromium } from './debian-chromium';

/** Debian's chromium, headless, with one page at a time; or why it cannot run. */
export type BrowserAvailability = { available: true; chromium: LocatedChromium } | { available: false; problem: string };

export function browserAvailability(): BrowserAvailability {
  const located = locateDebianChromium();
  return 'problem' in located ? { available: false, problem: located.problem } : { available: true, chromium: located };
}

/**
 * `describe` when chromium is there; otherwise one test that fails under CI (a skipped browser test
 * would hide a broken install) and is skipped elsewhere, its name saying what is missing.
 */
export function describeInBrowser(name: string, tests: (chromium: LocatedChromium) => void): void {
  const availability = browserAvailability();
  if (availability.available) {
    describe(name, () => tests(availability.chromium));
    return;
  }
  const problem = availability.problem;
  (process.env.CI ? it : it.skip)(`${name}: needs chromium (${problem})`, () => {
    throw new Error(problem);
  });
}

export async function launchChromium(located: LocatedChromium): Promise<Browser> {
  // The sandbox needs user namespaces a container often lacks; the pages are our own, served on loopback.
  return chromium.launch({ executablePath: located.executablePath, headless: true, args: ['--no-sandbox'] });
}

/** A page the size the screenshots in docs/dashboard.md are taken at. */
export async function openPage(browser: Browser): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  return page;
}
