import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { tolerantSchema } from '@skillopt/contract';
import { skillHash } from '../skill-hash.js';
import { readJsonFileIfExists } from './read-json-file.js';
import { isFileNotFound, runFileError } from './run-file-error.js';
import { RUN_FILES, resolveInRun } from './run-directory-layout.js';
import { runtimeStateSchema, type RuntimeState, type SkillReference } from './runtime-state.js';
import { historySchema, stepRecordSchema, type StepRecord } from './step-record.js';

/** Everything a resumed run needs, read and checked. */
export interface RunResumePoint {
  /** The run directory, absolute. */
  directory: string;
  state: RuntimeState;
  /** The text of state.current.skillPath, checked against state.current.skillHash. */
  currentSkill: string;
  /** The text of state.best.skillPath, checked against state.best.skillHash. */
  bestSkill: string;
  /**
   * The committed step records in step order. Records of a step after lastCompletedStep (written
   * by a step that was killed before its commit) are dropped: that step runs again.
   */
  history: StepRecord[];
}

const RESUME_REMEDY =
  'The run cannot resume from it. Restore the file from a backup or a copy of the run directory, or start a new run in another directory; nothing was changed.';

/**
 * Reads the committed state of a run directory for `--resume`. Returns undefined when nothing was
 * committed yet (no runtime_state.json: a fresh directory, or a run killed before its baseline),
 * and throws a clear `data-invalid` error naming the file for anything unusable. It only reads.
 */
export async function loadRunState(directory: string): Promise<RunResumePoint | undefined> {
  const runDirectory = path.resolve(directory);
  await requireDirectory(runDirectory);
  const statePath = path.join(runDirectory, RUN_FILES.runtimeState);
  const state = await readJsonFileIfExists(statePath, tolerantSchema(runtimeStateSchema), { description: 'the run’s resume pointer', remedy: RESUME_REMEDY });
  if (state === undefined) return undefined;
  const currentSkill = await readReferencedSkill(runDirectory, state.current, 'current');
  const bestSkill =
    state.best.skillPath === state.current.skillPath && state.best.skillHash === state.current.skillHash
      ? currentSkill
      : await readReferencedSkill(runDirectory, state.best, 'best');
  const history = await readCommittedHistory(runDirectory, state.lastCompletedStep);
  return { directory: runDirectory, state, currentSkill, bestSkill, history };
}

/** Reads a skill the state refers to and checks it is the text that was committed. */
export async function readReferencedSkill(runDirectory: string, reference: SkillReference, role: string): Promise<string> {
  const filePath = resolveInRun(runDirectory, reference.skillPath);
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    throw runFileError({
      filePath: path.join(runDirectory, RUN_FILES.runtimeState),
      problem: `points to the ${role} skill ${reference.skillPath}, which ${isFileNotFound(error) ? 'does not exist' : `cannot be read (${String(error)})`}`,
      remedy: RESUME_REMEDY,
      cause: error,
    });
  }
  const actualHash = skillHash(text);
  if (actualHash !== reference.skillHash)
    throw runFileError({
      filePath,
      problem: `was changed after it was committed as the ${role} skill (its hash is ${actualHash}, runtime_state.json recorded ${reference.skillHash})`,
      remedy: 'Undo the change to the file, or start a new run from the edited skill (train with it as the initial skill); nothing was changed.',
    });
  return text;
}

/**
 * history.json, limited to committed steps. history.json is derived data (each step record is also
 * in steps/step_NNNN/step_record.json), so when it is missing it is rebuilt from those files.
 */
async function readCommittedHistory(runDirectory: string, lastCompletedStep: number): Promise<StepRecord[]> {
  const historyPath = path.join(runDirectory, RUN_FILES.history);
  const stored = await readJsonFileIfExists(historyPath, tolerantSchema(historySchema), {
    description: 'the step history',
    remedy: `Delete it: it is rebuilt from ${RUN_FILES.stepsDirectory}/step_NNNN/${RUN_FILES.stepRecord} on the next resume.`,
  });
  const records = stored ?? (await rebuildHistoryFromStepRecords(runDirectory));
  return records.filter((record) => record.step <= lastCompletedStep).sort((a, b) => a.step - b.step);
}

async function rebuildHistoryFromStepRecords(runDirectory: string): Promise<StepRecord[]> {
  const stepsDirectory = path.join(runDirectory, RUN_FILES.stepsDirectory);
  let names: string[];
  try {
    names = await readdir(stepsDirectory);
  } catch (error) {
    if (isFileNotFound(error)) return [];
    throw error;
  }
  const records: StepRecord[] = [];
  for (const name of names.filter((entry) => /^step_\d+$/.test(entry)).sort()) {
    const record = await readJsonFileIfExists(path.join(stepsDirectory, name, RUN_FILES.stepRecord), tolerantSchema(stepRecordSchema), {
      description: 'a step record',
    });
    if (record !== undefined) records.push(record);
  }
  return records;
}

async function requireDirectory(directory: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
    throw runFileError({ filePath: directory, problem: 'does not exist', remedy: 'Check the run directory path.' });
  }
  if (!isDirectory) throw runFileError({ filePath: directory, problem: 'is not a directory', remedy: 'Pass the run directory (the one holding runtime_state.json).' });
}
