import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

// pack-and-install's rule that test data never enters a tarball (tools/pack-and-install/test-data-in-tarballs.mjs),
// on a package folder of the test's own.
const checkModule = path.join(__dirname, '..', 'pack-and-install', 'test-data-in-tarballs.mjs');

/** What testDataInFiles() says of `files` in `packageDirectory`, against the test data in `testDataDirectory`. */
function problemsOf(testDataDirectory: string, packageDirectory: string, files: string[]): string[] {
  const script = `import { testDataDigests, testDataInFiles } from ${JSON.stringify(checkModule)};
process.stdout.write(JSON.stringify(testDataInFiles(${JSON.stringify(packageDirectory)}, ${JSON.stringify(files)}, testDataDigests(${JSON.stringify(testDataDirectory)}))));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
}

let root: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'test-data-in-tarballs-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(file: string, content: string): void {
  mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
  writeFileSync(path.join(root, file), content);
}

/** What publishableFiles() lists for the package in `packageDirectory`. */
function publishableFilesOf(packageDirectory: string): string[] {
  const script = `import { readFileSync } from 'node:fs';
import { publishableFiles } from ${JSON.stringify(checkModule)};
const directory = ${JSON.stringify(packageDirectory)};
process.stdout.write(JSON.stringify(publishableFiles(directory, JSON.parse(readFileSync(directory + '/package.json', 'utf8')))));`;
  return JSON.parse(execFileSync('node', ['--input-type=module', '-e', script], { encoding: 'utf8' })) as string[];
}

describe('test data in a tarball', () => {
  it('looks at package.json and every file the files list takes in, whole folders included', () => {
    write('package/package.json', JSON.stringify({ name: 'example', files: ['dist', 'README.md', 'missing'] }));
    for (const file of ['dist/index.js', 'dist/chunks/a.js', 'README.md', 'test/index.test.ts', 'src/index.ts']) write(`package/${file}`, `${file}\n`);
    expect(publishableFilesOf(path.join(root, 'package')).sort()).toEqual(['README.md', 'dist/chunks/a.js', 'dist/index.js', 'package.json']);
  });

  it('names a packed file whose content is a file of testdata/, whatever it is called', () => {
    write('testdata/transcripts/session.jsonl', '{"type":"user"}\n');
    write('package/dist/session.jsonl', '{"type":"user"}\n');
    write('package/dist/index.js', 'export {};\n');
    expect(problemsOf(path.join(root, 'testdata'), path.join(root, 'package'), ['dist/session.jsonl', 'dist/index.js'])).toEqual([
      'dist/session.jsonl is testdata/transcripts/session.jsonl',
    ]);
  });

  it('names test files and fixtures folders, and lets a data set’s test split through', () => {
    write('testdata/a.txt', 'a\n');
    for (const file of ['dist/index.test.js', 'fixtures/x.json', 'demo/test/items.json']) write(`package/${file}`, `${file}\n`);
    expect(problemsOf(path.join(root, 'testdata'), path.join(root, 'package'), ['dist/index.test.js', 'fixtures/x.json', 'demo/test/items.json'])).toEqual([
      'dist/index.test.js is a test file or fixture',
      'fixtures/x.json is a test file or fixture',
    ]);
  });
});
