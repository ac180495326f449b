// Test data stays in the repository: no public package's tarball may hold a file of testdata/
// (by content, so a copy made at build time is caught too), a fixtures folder or a test file. A
// folder named `test` is allowed: a shipped data set's test split is one (the CLI's demo).
// Reads each package's file list with `pnpm pack --dry-run`, which writes no tarball.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';

const TEST_PATH = /(^|\/)(__tests__|__fixtures__|fixtures|testdata)\/|\.(test|spec)\.[cm]?[jt]sx?$/;

function digestOf(file) {
  return createHash('sha256').update(readFileSync(file)).digest('hex');
}

/** The content digests of every file under `testDataDirectory`, each with its path there. */
export function testDataDigests(testDataDirectory) {
  const digests = new Map();
  for (const entry of readdirSync(testDataDirectory, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = path.join(entry.parentPath, entry.name);
    digests.set(digestOf(file), path.relative(testDataDirectory, file));
  }
  return digests;
}

/** The files `pnpm pack` would put in the package's tarball, relative to its folder. */
export function packedFiles(packageDirectory) {
  const listing = execFileSync('pnpm', ['pack', '--dry-run', '--json'], { cwd: packageDirectory, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return JSON.parse(listing).files.map((file) => file.path);
}

/**
 * Why the files of one package's tarball hold test data: one line per offending file, empty when
 * none does. `digests` is testDataDigests() of the repository's testdata/.
 */
export function testDataInFiles(packageDirectory, files, digests) {
  const problems = [];
  for (const file of files) {
    const copied = digests.get(digestOf(path.join(packageDirectory, file)));
    if (copied !== undefined) problems.push(`${file} is testdata/${copied}`);
    else if (TEST_PATH.test(file)) problems.push(`${file} is a test file or fixture`);
  }
  return problems;
}
