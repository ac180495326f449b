import { stat } from 'node:fs/promises';
import { listRuns, readRunListEntry, type RunListEntry, type UnreadableRunListEntry } from '@skillopt/core';
import { readRunSignature } from './run-signature.js';

interface CachedEntry {
  signature: string;
  name: string;
  read: Promise<RunListEntry>;
}

/**
 * The runs of a folder as core's `listRuns` lists them, with each run's entry kept while its
 * signature (run-signature.ts) is unchanged: the runs page, the run-status of each events stream
 * and their polling ask often, and a long run's files are only read again when they changed.
 * Concurrent askers of a changed run share one read; a run that cannot be read keeps its error.
 */
export interface RunListCache {
  list(folder: string): Promise<Array<RunListEntry | UnreadableRunListEntry>>;
  /** One run's entry (core's readRunListEntry), from the cache while the run is unchanged. */
  entry(directory: string, name: string): Promise<RunListEntry>;
}

export function createRunListCache(): RunListCache {
  const cached = new Map<string, CachedEntry>();

  async function entry(directory: string, name: string): Promise<RunListEntry> {
    // Read before the files, so a change during the read is seen at the next ask.
    const signature = await readRunSignature(directory);
    const hit = cached.get(directory);
    if (hit !== undefined && hit.signature === signature && hit.name === name) return hit.read;
    const read = readRunListEntry(directory, name);
    // Kept even when it fails: a damaged run is not re-read until its files change.
    read.catch(() => undefined);
    cached.set(directory, { signature, name, read });
    return read;
  }

  return {
    entry,
    async list(folder) {
      // No folder yet is no runs yet: `skillopt train` creates outputs/ with its first run.
      const isFolder = await stat(folder).then(
        (found) => found.isDirectory(),
        () => false,
      );
      const runs = isFolder ? await listRuns(folder, { readEntry: entry }) : [];
      const listed = new Set(runs.map((run) => run.directory));
      for (const directory of cached.keys()) if (!listed.has(directory)) cached.delete(directory);
      return runs;
    },
  };
}
