import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * A fresh directory for one rollout attempt, under `parent`: a retried attempt never sees files a
 * failed one left behind. The item id is kept in the name (made filesystem-safe) so a reader of a
 * run directory can tell which item a leftover belongs to; `mkdtemp` makes it unique, also across
 * samples and concurrent runs sharing `parent`.
 */
export async function createRolloutWorkDirectory(parent: string, itemId: string, sampleIndex: number): Promise<string> {
  await mkdir(parent, { recursive: true });
  const safeItemId = itemId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
  return mkdtemp(path.join(parent, `${safeItemId}.s${sampleIndex}.`));
}

/** Removes an attempt's directory; what the env wanted to keep is in its result, not on disk. */
export async function removeRolloutWorkDirectory(directory: string): Promise<void> {
  await rm(directory, { recursive: true, force: true });
}
