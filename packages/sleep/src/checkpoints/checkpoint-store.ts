import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract/errors';
import { acquireDirectoryLock, readJsonFileIfExists, writeJsonAtomic } from '@skillopt/core';
import { z } from 'zod';
import { SOURCE_IDS, type SourceId } from '../harvest/session-record.js';
import { projectStateDirectory } from './state-directory.js';

/**
 * How far each project's nights have read each source: the end of the window the last completed
 * night covered, in UTC epoch milliseconds, compared as numbers. The original kept one local time
 * without an offset per project, compared as text against UTC times, and set it even for nights
 * that harvested nothing (upstream-sleep §9 items 1 and 2). Here only a completed night advances
 * a checkpoint (`advance`); `harvest` only reads them.
 */
export const CHECKPOINTS_FILE = 'checkpoints.json';
export const CHECKPOINTS_FORMAT = 1;

const checkpointsSchema = z.object({
  format: z.literal(CHECKPOINTS_FORMAT),
  project: z.string(),
  /** Epoch ms by source id. */
  sources: z.partialRecord(z.enum(SOURCE_IDS), z.number().int().nonnegative()),
});
type CheckpointsFile = z.infer<typeof checkpointsSchema>;

export interface CheckpointStore {
  readonly stateDirectory: string;
  /** The checkpoint of one project and source, or undefined when no night completed there. */
  read(project: string, source: SourceId): Promise<number | undefined>;
  /** Every source's checkpoint of one project, in one read. */
  readProject(project: string): Promise<Partial<Record<SourceId, number>>>;
  /** Every project's checkpoint of `source` (for a harvest over all projects). */
  readAll(source: SourceId): Promise<Map<string, number>>;
  /**
   * Moves a project's checkpoints forward to `until` (epoch ms) for the sources given; never
   * backward. Called by a completed night only, under the project's state lock.
   */
  advance(project: string, sources: readonly SourceId[], until: number): Promise<void>;
}

function checkpointsFile(stateDirectory: string, project: string): string {
  return path.join(projectStateDirectory(stateDirectory, project), CHECKPOINTS_FILE);
}

const readOptions = {
  description: " (Sleep's checkpoints)",
  remedy: 'Move the file aside to start the project over from the lookback window.',
};

function readCheckpointsFile(file: string): Promise<CheckpointsFile | undefined> {
  return readJsonFileIfExists(file, checkpointsSchema, readOptions);
}

export function createCheckpointStore(stateDirectory: string): CheckpointStore {
  const readFile = readCheckpointsFile;
  return {
    stateDirectory,
    async read(project, source) {
      return (await readFile(checkpointsFile(stateDirectory, project)))?.sources[source];
    },
    async readProject(project) {
      return (await readFile(checkpointsFile(stateDirectory, project)))?.sources ?? {};
    },
    async readAll(source) {
      const found = new Map<string, number>();
      let folders: string[];
      try {
        folders = await readdir(path.join(stateDirectory, 'projects'));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return found;
        throw error;
      }
      for (const folder of folders.sort()) {
        const file = await readFile(path.join(stateDirectory, 'projects', folder, CHECKPOINTS_FILE));
        const checkpoint = file?.sources[source];
        if (file !== undefined && checkpoint !== undefined) found.set(file.project, checkpoint);
      }
      return found;
    },
    async advance(project, sources, until) {
      const directory = projectStateDirectory(stateDirectory, path.resolve(project));
      await mkdir(directory, { recursive: true });
      const lock = await acquireDirectoryLock(directory, { purpose: 'sleep state' });
      try {
        await advanceCheckpointsUnderLock(stateDirectory, project, sources, until);
      } finally {
        await lock.release();
      }
    },
  };
}

/**
 * Moves a project's checkpoints forward, never backward, for a caller that already holds the
 * project's state lock (a night holds it from start to end).
 */
export async function advanceCheckpointsUnderLock(stateDirectory: string, project: string, sources: readonly SourceId[], until: number): Promise<void> {
  if (!Number.isInteger(until) || until < 0)
    throw new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message: `A checkpoint is epoch milliseconds; got ${until}.` });
  const absolute = path.resolve(project);
  const file = checkpointsFile(stateDirectory, absolute);
  const current: CheckpointsFile = (await readCheckpointsFile(file)) ?? { format: CHECKPOINTS_FORMAT, project: absolute, sources: {} };
  for (const source of sources) current.sources[source] = Math.max(current.sources[source] ?? 0, until);
  await writeJsonAtomic(file, current);
}
