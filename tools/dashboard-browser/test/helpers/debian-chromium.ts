import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Debian's chromium, as the browser tests drive it: where it is and which version it is. */
export interface LocatedChromium {
  executablePath: string;
  version: string;
}

// Debian moves chromium to each new stable major within days; playwright-core follows a few weeks
// later. A browser this many majors newer than the one playwright-core was released for still
// speaks its protocol; an older one, or one further ahead, is a mismatch to fix by changing the pin.
const NEWER_MAJORS_ACCEPTED = 3;

/**
 * Finds chromium (SKILLOPT_CHROMIUM, else Debian's, else `chromium` on PATH) and checks
 * its version against the one the installed playwright-core drives. A mismatch is an error that
 * names both versions and what to change.
 */
export function locateDebianChromium(): LocatedChromium | { problem: string } {
  // Debian's /usr/bin/chromium is a shell wrapper whose start-up checks print noise; the binary it starts is beside it.
  const candidates = [process.env.SKILLOPT_CHROMIUM, '/usr/lib/chromium/chromium', '/usr/bin/chromium', ...pathCandidates()].filter(
    (candidate): candidate is string => candidate !== undefined && candidate !== '',
  );
  const executablePath = candidates.find((candidate) => existsSync(candidate));
  if (executablePath === undefined)
    return { problem: 'chromium is not installed: `apt-get install -y chromium` (Debian) installs it, or set SKILLOPT_CHROMIUM to a chromium binary' };
  let reported: string;
  try {
    reported = execFileSync(executablePath, ['--version'], { encoding: 'utf8', timeout: 30_000 }).trim();
  } catch (error) {
    return { problem: `${executablePath} --version failed: ${error instanceof Error ? error.message : String(error)}` };
  }
  const version = /(\d+\.\d+\.\d+\.\d+)/.exec(reported)?.[1];
  if (version === undefined) return { problem: `cannot read a version from \`${executablePath} --version\`: ${reported}` };
  const driver = playwrightChromium();
  const major = Number(version.split('.')[0]);
  const expectedMajor = Number(driver.browserVersion.split('.')[0]);
  if (major < expectedMajor || major > expectedMajor + NEWER_MAJORS_ACCEPTED)
    return {
      problem: `chromium ${version} (${executablePath}) does not match playwright-core ${driver.playwrightVersion}, which drives chromium ${driver.browserVersion} (majors ${expectedMajor} to ${expectedMajor + NEWER_MAJORS_ACCEPTED} are accepted): pin the playwright-core release made for chromium ${major} in tools/dashboard-browser/package.json`,
    };
  return { executablePath, version };
}

/** The chromium version the installed playwright-core was released for (its browsers.json). */
export function playwrightChromium(): { playwrightVersion: string; browserVersion: string } {
  const packageDirectory = path.dirname(require.resolve('playwright-core/package.json'));
  const manifest = JSON.parse(readFileSync(path.join(packageDirectory, 'package.json'), 'utf8')) as { version: string };
  const browsers = JSON.parse(readFileSync(path.join(packageDirectory, 'browsers.json'), 'utf8')) as {
    browsers: Array<{ name: string; browserVersion: string }>;
  };
  const chromium = browsers.browsers.find((browser) => browser.name === 'chromium');
  if (chromium === undefined) throw new Error(`playwright-core ${manifest.version} names no chromium in its browsers.json`);
  return { playwrightVersion: manifest.version, browserVersion: chromium.browserVersion };
}

function pathCandidates(): string[] {
  return (process.env.PATH ?? '').split(path.delimiter).flatMap((directory) => (directory === '' ? [] : [path.join(directory, 'chromium')]));
}
