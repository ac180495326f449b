import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const FIXTURE_SPLIT_DIR = path.join(__dirname, '..', '..', '..', 'datasets', 'docvqa', 'fixture');

/** A valid 1 × 1 PNG. */
export const TINY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
/** The first bytes of a JPEG, enough for the format sniffing. */
export const TINY_JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);

export function rawItem(id: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { id, question: `What is written in box ${id}?`, answers: [`Answer ${id}`], image_path: `pages/${id}.png`, ...extra };
}

/** A fresh temporary directory, removed by `cleanup`. */
export async function temporaryDirectory(): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'env-docvqa-test-'));
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

export async function writeImage(file: string, bytes: Buffer = TINY_PNG): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, bytes);
}

/** Writes items with their page images (`pages/<id>.png` under `imageRoot`). */
export async function writeItemsWithImages(file: string, items: Array<Record<string, unknown>>, imageRoot: string): Promise<void> {
  await writeJson(file, items);
  for (const item of items) if (typeof item.image_path === 'string') await writeImage(path.resolve(imageRoot, item.image_path));
}
