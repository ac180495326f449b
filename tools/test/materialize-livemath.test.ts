/// <reference path="../../packages/env-livemath/src/text-files.d.ts" />
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createEnvironment, liveMathItemSchema, loadLiveMathSplitDirectory, type LiveMathTaskItem } from '../../packages/env-livemath/src/index';

const script = path.join(__dirname, '..', 'materialize-livemath', 'materialize.mjs');
const RAW_DIR = path.join(__dirname, 'fixtures', 'livemath-raw');
const MANIFEST_DIR = path.join(__dirname, 'fixtures', 'livemath-manifest');
const PAPER_MANIFEST_DIR = path.join(__dirname, '..', '..', 'datasets', 'livemath', 'paper-split');
const SPLITS = ['train', 'val', 'test'] as const;

const directories: string[] = [];
function temporaryDirectory(): string {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'materialize-livemath-'));
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

describe('materialize-livemath', () => {
  it("builds a split directory from raw monthly files and a manifest, in the manifest's order", () => {
    const out = path.join(temporaryDirectory(), 'split');
    const result = run('--raw-dir', RAW_DIR, '--manifest-dir', MANIFEST_DIR, '--out', out);
    expect(result).toMatchObject({ status: 0, stderr: '' });
    expect(result.stdout).toBe(`Wrote 2 train, 1 val and 2 test items to ${out}\n`);
    for (const split of SPLITS) {
      const ids = readJson(path.join(out, split, 'items.json')).map((item: { id: string }) => item.id);
      expect(ids).toEqual(readJson(path.join(MANIFEST_DIR, split, 'items.json')).map((entry: { id: string }) => entry.id));
    }
    expect(readJson(path.join(out, 'split_manifest.json'))).toMatchObject({
      benchmark: 'LiveMathematicianBench',
      source_files: ['data/202511/qa_202511_final.json', 'data/202512/qa_202512_final.json'],
      source_revision: 'fixture',
      counts: { train: 2, val: 1, test: 2 },
    });
  });

  it('writes the normalized format: labels, choices from every raw form, the missing correct choice added', () => {
    const out = path.join(temporaryDirectory(), 'split');
    expect(run('--raw-dir', RAW_DIR, '--manifest-dir', MANIFEST_DIR, '--out', out).status).toBe(0);
    const [tree, group] = readJson(path.join(out, 'train', 'items.json'));
    expect(Object.keys(tree)).toEqual([
      'id',
      'month',
      'no',
      'paper_link',
      'theorem',
      'sketch',
      'theorem_type',
      'question',
      'choices',
      'correct_choice',
      'source_path',
    ]);
    expect(tree).toMatchObject({
      id: '202512:7',
      month: '202512',
      no: 7,
      theorem_type: ['combinatorics', 'graph theory'],
      correct_choice: { label: 'B', text: '9' },
      source_path: 'data/202512/qa_202512_final.json',
    });
    expect(tree.choices.map((choice: { label: string }) => choice.label)).toEqual(['A', 'B', 'C', 'D', 'E']);
    expect(group).toMatchObject({ id: '202511:1', theorem_type: ['algebra'], correct_choice: { label: 'A', text: 'G is cyclic' } });
    const [series] = readJson(path.join(out, 'val', 'items.json'));
    expect(series.choices).toEqual([
      { label: 'A', text: 'they converge to 2' },
      { label: 'B', text: 'they converge to ln 2' },
      { label: 'C', text: 'they grow without bound' },
      { label: 'D', text: 'they are bounded but do not converge' },
    ]);
    const [extremes] = readJson(path.join(out, 'test', 'items.json'));
    expect(extremes.correct_choice).toEqual({ label: 'D', text: 'none of them' });
  });

  it("writes items that env-livemath's schema and loader accept", async () => {
    const out = path.join(temporaryDirectory(), 'split');
    expect(run('--raw-dir', RAW_DIR, '--manifest-dir', MANIFEST_DIR, '--out', out).status).toBe(0);
    for (const split of SPLITS) {
      for (const raw of readJson(path.join(out, split, 'items.json'))) expect(liveMathItemSchema.safeParse(raw).success).toBe(true);
    }
    const train = await loadLiveMathSplitDirectory(out, 'train');
    expect(train.map((item) => [item.id, item.references])).toEqual([
      ['202512:7', ['B', '9']],
      ['202511:1', ['A', 'G is cyclic']],
    ]);
    const environment = createEnvironment({ split_dir: out });
    const test = (await environment.loadSplit('test')) as LiveMathTaskItem[];
    expect(test.map((item) => item.references[1])).toEqual(['none of them', 'no, the number of odd-degree vertices is always even']);
    expect(test[0]!.theorem_types).toEqual(['analysis', 'extreme values']);
  });

  it('names the ids missing from the raw files, with the monthly file each comes from, and writes nothing', () => {
    const root = temporaryDirectory();
    const manifest = path.join(root, 'manifest');
    cpSync(MANIFEST_DIR, manifest, { recursive: true });
    const val = readJson(path.join(manifest, 'val', 'items.json'));
    val.push({ id: '202601:9', month: '202601', no: 9, source_file: 'data/202601/qa_202601_final.json' });
    writeFileSync(path.join(manifest, 'val', 'items.json'), JSON.stringify(val));
    const out = path.join(root, 'split');
    const result = run('--raw-dir', RAW_DIR, '--manifest-dir', manifest, '--out', out);
    expect(result.status).toBe(1);
    expect(result.stderr).toContain("1 of the manifest's 6 ids are missing from the raw files: 202601:9 (from data/202601/qa_202601_final.json)");
    expect(result.stderr).toContain('Raw files read (2): data/202511/qa_202511_final.json, data/202512/qa_202512_final.json');
    expect(existsSync(out)).toBe(false);
  });

  it("reports the paper's manifest as incomplete against the tiny fixture", () => {
    const result = run('--raw-dir', RAW_DIR, '--manifest-dir', PAPER_MANIFEST_DIR, '--out', path.join(temporaryDirectory(), 'split'));
    expect(result.status).toBe(1);
    expect(result.stderr).toMatch(/ of the manifest's 177 ids are missing from the raw files: .*\(from data\/2026\d\d\/qa_2026\d\d_final\.json\)/);
  });

  it('rejects a manifest item without a usable question, an id twice in the raw files, and a raw dir without monthly files', () => {
    const root = temporaryDirectory();
    const manifest = path.join(root, 'manifest');
    cpSync(MANIFEST_DIR, manifest, { recursive: true });
    writeFileSync(path.join(manifest, 'val', 'items.json'), JSON.stringify([{ id: '202511:3' }]));
    const noQuestion = run('--raw-dir', RAW_DIR, '--manifest-dir', manifest, '--out', path.join(root, 'a'));
    expect(noQuestion.status).toBe(1);
    expect(noQuestion.stderr).toMatch(/202511:3 \(data\/202511\/qa_202511_final\.json index 2\): the question is missing or blank/);

    const raw = path.join(root, 'raw');
    cpSync(RAW_DIR, raw, { recursive: true });
    cpSync(path.join(raw, 'data', '202511', 'qa_202511_final.json'), path.join(raw, 'qa_202511_final.json'));
    const twice = run('--raw-dir', raw, '--manifest-dir', MANIFEST_DIR, '--out', path.join(root, 'b'));
    expect(twice.status).toBe(1);
    expect(twice.stderr).toMatch(/id 202511:1 appears twice in the raw files/);

    const empty = run('--raw-dir', path.join(root, 'manifest'), '--manifest-dir', MANIFEST_DIR, '--out', path.join(root, 'c'));
    expect(empty.status).toBe(1);
    expect(empty.stderr).toMatch(/no qa_<YYYYMM>_final\.json file under/);
  });

  it('explains its usage', () => {
    expect(run('--help')).toMatchObject({ status: 0 });
    const missing = run('--raw-dir', RAW_DIR);
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/--out is required/);
    expect(run('--raw-dir', RAW_DIR, '--out', 'x', '--bogus').stderr).toMatch(/unknown argument "--bogus"/);
  });
});
