import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

/** A rollout's own directory, made only when the env first asks for it. */
export interface RolloutWorkDirectory {
  /** The directory's path; the first call creates it, every later call returns the same path. */
  path(): Promise<string>;
  /** Removes it, if it was ever created. */
  remove(): Promise<void>;
}

/**
 * A directory for one rollout attempt under `parent`, created lazily (RolloutContext's
 * `workDirectory()`): an env that writes nothing costs no directory. A retried attempt gets a new
 * one and never sees files a failed attempt left behind. The item id is kept in the name (made
 * filesystem-safe) so a reader can tell which item a leftover belongs to; `mkdtemp` makes it
 * unique, also across samples and concurrent runs sharing `parent`. Core and the conformance suite
 * both hand rollouts one of these.
 */
export function createRolloutWorkDirectory(parent: string, itemId: string, sampleIndex: number): RolloutWorkDirectory {
  let created: Promise<string> | undefined;
  return {
    path() {
      created ??= (async () => {
        await mkdir(parent, { recursive: true });
        const safeItemId = itemId.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 80);
        return mkdtemp(path.join(parent, `${safeItemId}.s${sampleIndex}.`));
      })();
      return created;
    },
    async remove() {
      if (created === undefined) return;
      const directory = await created.catch(() => undefined);
      if (directory !== undefined) await rm(directory, { recursive: true, force: true });
    },
  };
}
