import path from 'node:path';
import { tolerantSchema } from '@skillopt/contract';
import { z } from 'zod';
import { writeJsonAtomic } from './atomic-write.js';
import { readJsonFileIfExists } from './read-json-file.js';
import { RUN_DIRECTORY_FORMAT, RUN_FILES } from './run-directory-layout.js';

/**
 * run.json: who the run is, written before anything else in a new run directory (config.json
 * next), so a run killed at any instant after its start keeps one run id across its sessions even
 * when it committed nothing. runtime_state.json repeats the id once the baseline is committed.
 */
export const runIdentitySchema = z.object({
  formatVersion: z.number().int(),
  runId: z.string().min(1),
  createdAt: z.string(),
});
export type RunIdentity = z.infer<typeof runIdentitySchema>;

export async function writeRunIdentity(directory: string, runId: string): Promise<RunIdentity> {
  const identity: RunIdentity = { formatVersion: RUN_DIRECTORY_FORMAT, runId, createdAt: new Date().toISOString() };
  await writeJsonAtomic(path.join(directory, RUN_FILES.identity), identity);
  return identity;
}

/** The run's identity, or undefined for a directory that has none (a run of an earlier release, or no run). */
export async function readRunIdentity(directory: string): Promise<RunIdentity | undefined> {
  return readJsonFileIfExists(path.join(directory, RUN_FILES.identity), tolerantSchema(runIdentitySchema), {
    description: 'the run’s identity',
    remedy: `Delete it: a resumed run takes its id from ${RUN_FILES.runtimeState}, or writes a new ${RUN_FILES.identity} when nothing was committed. Nothing was changed.`,
  });
}
