import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const FIXTURE_SPLIT_DIR = path.join(__dirname, '..', '..', '..', 'datasets', 'searchqa', 'fixture');
export const DEMO_SPLIT_DIR = path.join(__dirname, '..', '..', '..', 'datasets', 'demo');

export function rawItem(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, question: `Question ${id}?`, context: `[DOC] [TLE] Page ${id} [PAR] Snippet about ${id}.`, answers: [`Answer ${id}`], ...extra };
}

/** A fresh temporary directory, removed by `cleanup`. */
export async function temporaryDirectory(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'env-searchqa-test-'));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export async function writeJson(file: string, value: unknown): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, JSON.stringify(value, null, 2), 'utf8');
}

export async function writeJsonLines(file: string, values: unknown[]): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, `${values.map((value) => JSON.stringify(value)).join('\n')}\n`, 'utf8');
}
