/// <reference path="../../packages/env-searchqa/src/text-files.d.ts" />
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEnvironment, loadSearchQaSplitDirectory, searchQaItemMapper } from '../../packages/env-searchqa/src/index';

// Each test runs the materialize script as a process, some tests several times, a Node start each,
// which a loaded machine slows many times over: the limit is there to catch a hang, not to time the
// runs.
jest.setTimeout(300_000);

const script = path.join(__dirname, '..', 'materialize-searchqa', 'materialize.mjs');
const ROWS_DIR = path.join(__dirname, 'fixtures', 'searchqa-rows');
const MANIFEST_DIR = path.join(__dirname, 'fixtures', 'searchqa-manifest');
const PAPER_MANIFEST_DIR = path.join(__dirname, '..', '..', 'datasets', 'searchqa', 'paper-split');
const SPLITS = ['train', 'val', 'test'] as const;

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'materialize-searchqa-'));
  directories.push(directory);
  return directory;
}
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function run(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const result = spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

const readJson = (file: string) => JSON.parse(readFileSync(file, 'utf8'));

describe('materialize-searchqa', () => {
  it('builds a split directory from exported rows and a manifest, keyed on "key", in the manifest\'s order', () => {
    const out = path.join(temporaryDirectory(), 'split');
    const result = run('--rows', ROWS_DIR, '--manifest-dir', MANIFEST_DIR, '--out', out);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toBe(`Wrote 2 train, 1 val and 3 test items to ${out}\n`);
    for (const split of SPLITS) {
      const items = readJson(path.join(out, split, 'items.json'));
      expect(items.map((item: { id: string }) => item.id)).toEqual(
        readJson(path.join(MANIFEST_DIR, split, 'items.json')).map((entry: { id: string }) => entry.id),
      );
      for (const item of items) expect(Object.keys(item)).toEqual(['id', 'question', 'context', 'answers']);
    }
    expect(readJson(path.join(out, 'train', 'items.json'))[1]).toEqual({
      id: '0a1b2c3d4e5f40718293a4b5c6d7e8f9',
      question: 'This planet, fourth from the Sun, is named for a Roman god of war',
      context: '[DOC] [TLE] The red planet [PAR] The fourth planet from the Sun takes its name from the Roman god of war.',
      answers: ['Mars'],
    });
    expect(readJson(path.join(out, 'split_manifest.json'))).toMatchObject({
      benchmark: 'SearchQA',
      source_dataset: 'fixture/searchqa',
      counts: { train: 2, val: 1, test: 3 },
      item_fields: ['id', 'question', 'context', 'answers'],
    });
  });

  it("reads several --rows files, and writes items that env-searchqa's mapper and loader accept", async () => {
    const out = path.join(temporaryDirectory(), 'split');
    const result = run(
      '--rows',
      path.join(ROWS_DIR, 'train.jsonl'),
      '--rows',
      path.join(ROWS_DIR, 'validation.jsonl'),
      '--manifest-dir',
      MANIFEST_DIR,
      '--out',
      out,
    );
    expect(result.status).toBe(0);
    for (const split of SPLITS) {
      for (const raw of readJson(path.join(out, split, 'items.json'))) expect(searchQaItemMapper.safeParse(raw).success).toBe(true);
    }
    const test = await loadSearchQaSplitDirectory(out, 'test');
    expect(test.map((item) => item.references)).toEqual([['12', 'twelve'], ['hypotenuse'], ['octagon']]);
    // A null context becomes "", which the env reads as "no search results".
    expect(test[2]!.context).toBeUndefined();
    const environment = createEnvironment({ split_dir: out });
    expect((await environment.loadSplit('val')).map((item) => item.references)).toEqual([['iron']]);
  });

  it('names the ids missing from the rows and writes nothing', () => {
    const root = temporaryDirectory();
    const out = path.join(root, 'split');
    const onlyTrain = run('--rows', path.join(ROWS_DIR, 'train.jsonl'), '--manifest-dir', MANIFEST_DIR, '--out', out);
    expect(onlyTrain.status).toBe(1);
    expect(onlyTrain.stderr).toContain(
      '3 of the manifest\'s 6 ids are missing from the rows (matched on "key"): 5f60718293a4b5c6d7e8f90a1b2c3d4e, 4e5f60718293a4b5c6d7e8f90a1b2c3d, 60718293a4b5c6d7e8f90a1b2c3d4e5f',
    );
    expect(onlyTrain.stderr).toContain('Row files read (1): train.jsonl');
    expect(existsSync(out)).toBe(false);
    const paper = run('--rows', ROWS_DIR, '--manifest-dir', PAPER_MANIFEST_DIR, '--out', out);
    expect(paper.status).toBe(1);
    expect(paper.stderr).toMatch(/2000 of the manifest's 2000 ids are missing from the rows/);
  });

  it('rejects a duplicate key, a row that cannot be an item, a row without a key and a bad line', () => {
    const root = temporaryDirectory();
    const rows = path.join(root, 'rows');
    cpSync(ROWS_DIR, rows, { recursive: true });
    cpSync(path.join(rows, 'validation.jsonl'), path.join(rows, 'validation-copy.jsonl'));
    const twice = run('--rows', rows, '--manifest-dir', MANIFEST_DIR, '--out', path.join(root, 'a'));
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/key 4e5f60718293a4b5c6d7e8f90a1b2c3d appears twice in the rows: validation-copy\.jsonl line 1 and validation\.jsonl line 1/);

    const bad = path.join(root, 'bad.jsonl');
    const line = (row: Record<string, unknown>) => JSON.stringify(row);
    writeFileSync(bad, [line({ key: '4e5f60718293a4b5c6d7e8f90a1b2c3d', question: 'Q', context: 'c', answers: [] })].join('\n'));
    const unusable = run(
      '--rows',
      path.join(ROWS_DIR, 'train.jsonl'),
      '--rows',
      bad,
      '--rows',
      path.join(ROWS_DIR, 'validation.jsonl'),
      '--manifest-dir',
      MANIFEST_DIR,
      '--out',
      path.join(root, 'b'),
    );
    expect(unusable.status).toBe(1);
    expect(unusable.stderr).toMatch(/key 4e5f60718293a4b5c6d7e8f90a1b2c3d appears twice/);
    writeFileSync(bad, line({ key: '4e5f60718293a4b5c6d7e8f90a1b2c3d', question: 'Q', context: 'c', answers: [] }));
    const validationWithout = path.join(root, 'validation.jsonl');
    writeFileSync(validationWithout, readFileSync(path.join(ROWS_DIR, 'validation.jsonl'), 'utf8').split('\n').slice(1).join('\n'));
    const empty = run(
      '--rows',
      path.join(ROWS_DIR, 'train.jsonl'),
      '--rows',
      bad,
      '--rows',
      validationWithout,
      '--manifest-dir',
      MANIFEST_DIR,
      '--out',
      path.join(root, 'c'),
    );
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/4e5f60718293a4b5c6d7e8f90a1b2c3d \(bad\.jsonl line 1\): answers must be a non-empty list/);

    writeFileSync(bad, `${line({ question: 'no key' })}\n`);
    expect(run('--rows', bad, '--manifest-dir', MANIFEST_DIR, '--out', path.join(root, 'd')).stderr).toMatch(/bad\.jsonl line 1: the row has no "key"/);
    writeFileSync(bad, '{"key": "x", \n');
    expect(run('--rows', bad, '--manifest-dir', MANIFEST_DIR, '--out', path.join(root, 'e')).stderr).toMatch(/bad\.jsonl line 1 is not valid JSON/);
  });

  it('explains its usage', () => {
    expect(run('--help').status).toBe(0);
    const missing = run('--out', 'x');
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--rows is required/);
  });
});
