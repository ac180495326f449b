import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadSearchQaSplitDirectory } from '../../packages/env-searchqa/src/index';

const script = path.join(__dirname, '..', 'generate-demo-hard', 'generate.mjs');

function run(...args: string[]) {
  return spawnSync(process.execPath, [script, ...args], { encoding: 'utf8' });
}

describe('the generator of datasets/demo-hard', () => {
  let out: string;
  beforeAll(() => {
    out = mkdtempSync(path.join(os.tmpdir(), 'demo-hard-'));
  });
  afterAll(() => rmSync(out, { recursive: true, force: true }));

  it('wrote the committed files: --check finds them identical', () => {
    const check = run('--check');
    expect(check.stderr).toBe('');
    expect(check.status).toBe(0);
  });

  it('writes 140 / 70 / 140 items, an equal share of each of the seven answer types, every question unique, in the SearchQA format', async () => {
    expect(run('--out', out).status).toBe(0);
    const sizes = { train: 140, val: 70, test: 140 };
    const questions = new Set<string>();
    for (const [split, size] of Object.entries(sizes)) {
      const items = await loadSearchQaSplitDirectory(out, split as 'train' | 'val' | 'test');
      expect(items).toHaveLength(size);
      const raw = JSON.parse(readFileSync(path.join(out, split, 'items.json'), 'utf8')) as Array<{ question: string; answer_type: string }>;
      const perType = new Map<string, number>();
      for (const item of raw) {
        perType.set(item.answer_type, (perType.get(item.answer_type) ?? 0) + 1);
        questions.add(item.question);
      }
      expect([...perType.values()]).toEqual(Array(7).fill(size / 7));
    }
    expect(questions.size).toBe(350);
  });

  it('is deterministic, and --check says which file differs', () => {
    expect(run('--out', out, '--check').status).toBe(0);
    writeFileSync(path.join(out, 'val', 'items.json'), '[]\n');
    const check = run('--out', out, '--check');
    expect(check.status).toBe(1);
    expect(check.stderr).toContain(path.join('val', 'items.json'));
  });
});
