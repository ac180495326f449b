// Test data stays in the repository: no public package's tarball may hold a file of testdata/
// (by content, so a copy made at build time is caught too), a fixtures folder or a test file. A
// folder named `test` is allowed: a shipped data set's test split is one (the CLI's demo).
// Reads the files each package's `files` list takes in, a superset of its tarball's.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
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

/**
 * Every file a package's tarball can hold: package.json and whatever its `files` list names, whole
 * folders included. npm and pnpm may leave some of these out (an .npmignore, their fixed
 * exclusions), never add to them, so checking these checks the tarball; and it reads no tarball,
 * where packing all the public packages costs minutes.
 */
export function publishableFiles(packageDirectory, manifest) {
  if (!Array.isArray(manifest.files)) throw new Error(`${manifest.name} has no files list: its tarball would take in the whole folder`);
  const found = ['package.json'];
  for (const entry of manifest.files) {
    if (/[*?[\]{}!]/.test(entry)) throw new Error(`${manifest.name}: the files entry ${entry} is a pattern, which this check does not expand`);
    const absolute = path.join(packageDirectory, entry);
    if (!existsSync(absolute)) continue;
    if (!statSync(absolute).isDirectory()) found.push(entry);
    else
      for (const file of readdirSync(absolute, { recursive: true, withFileTypes: true }))
        if (file.isFile()) found.push(path.relative(packageDirectory, path.join(file.parentPath, file.name)).split(path.sep).join('/'));
  }
  return found;
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
