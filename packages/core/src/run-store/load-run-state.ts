import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, tolerantSchema } from '@skillopt/contract';
import { z } from 'zod';
import { skillHash } from '../skill-hash.js';
import { readJsonFileIfExists } from './read-json-file.js';
import { isFileNotFound, pathExists, runFileError } from './run-file-error.js';
import { RUN_DIRECTORY_FORMAT, RUN_FILES, resolveInRun } from './run-directory-layout.js';
import { readJsonLinesFile } from './json-lines-file.js';
import { runtimeStateSchema, type RuntimeState, type SkillReference } from './runtime-state.js';
import { stepRecordSchema, type StepRecord } from './step-record.js';

/** Everything a resumed run needs, read and checked. */
export interface RunResumePoint<Trainer> {
  /** The run directory, absolute. */
  directory: string;
  state: RuntimeState<Trainer>;
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
export async function loadRunState<Trainer>(directory: string, trainerSchema: z.ZodType<Trainer>): Promise<RunResumePoint<Trainer> | undefined> {
  const runDirectory = path.resolve(directory);
  await requireDirectory(runDirectory);
  const statePath = path.join(runDirectory, RUN_FILES.runtimeState);
  const stored = await readJsonFileIfExists(statePath, z.unknown(), { description: 'the run’s resume pointer', remedy: RESUME_REMEDY });
  if (stored === undefined) return undefined;
  requireResumableFormat(statePath, stored);
  const parsed = tolerantSchema(runtimeStateSchema(trainerSchema)).safeParse(stored);
  if (!parsed.success)
    throw runFileError({ filePath: statePath, problem: `does not have the expected shape:\n${z.prettifyError(parsed.error)}`, remedy: RESUME_REMEDY });
  const state = parsed.data as RuntimeState<Trainer>;
  const currentSkill = await readReferencedSkill(runDirectory, state.current, 'current');
  const bestSkill =
    state.best.skillPath === state.current.skillPath && state.best.skillHash === state.current.skillHash
      ? currentSkill
      : await readReferencedSkill(runDirectory, state.best, 'best');
  const history = await readCommittedHistory(runDirectory, state.lastCompletedStep);
  return { directory: runDirectory, state, currentSkill, bestSkill, history };
}

/**
 * Refuses, before anything else is read or built, a directory `--resume` cannot continue: one that
 * does not exist or holds no run (no config.json: nothing was started there), with the command
 * that starts one, and a run directory in a format this release does not resume (format 1,
 * SkillOpt 0.1's). A run started and stopped before its baseline passes: it starts afresh, in place.
 */
export async function checkResumableRunDirectory(directory: string): Promise<void> {
  const runDirectory = path.resolve(directory);
  await requireDirectoryToResume(runDirectory);
  const statePath = path.join(runDirectory, RUN_FILES.runtimeState);
  const stored = await readJsonFileIfExists(statePath, z.unknown(), { description: 'the run’s resume pointer', remedy: RESUME_REMEDY });
  if (stored !== undefined) requireResumableFormat(statePath, stored);
  const configPath = path.join(runDirectory, RUN_FILES.config);
  if (await pathExists(configPath)) return;
  if (stored === undefined) throw nothingToResumeError(runDirectory, `no run was started there (it has no ${RUN_FILES.config})`);
  throw runFileError({ filePath: configPath, problem: 'does not exist, so the run has no configuration to resume with', remedy: RESUME_REMEDY });
}

/** The directory to resume exists, or a user error that says there is nothing to resume and how to start a run. */
export async function requireDirectoryToResume(directory: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
    throw nothingToResumeError(directory, 'it does not exist');
  }
  if (!isDirectory) throw nothingToResumeError(directory, 'it is not a directory');
}

function nothingToResumeError(directory: string, why: string): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `There is nothing to resume in ${directory}: ${why}. Start a run there with \`skillopt train --config <your config> --out ${directory}\`.`,
    details: { directory },
  });
}

function requireResumableFormat(statePath: string, stored: unknown): void {
  const format = typeof stored === 'object' && stored !== null ? (stored as { formatVersion?: unknown }).formatVersion : undefined;
  if (format !== RUN_DIRECTORY_FORMAT)
    throw runFileError({
      filePath: statePath,
      problem: `is in run-directory format ${JSON.stringify(format)}, and this release resumes format ${RUN_DIRECTORY_FORMAT} only (format 1 is SkillOpt 0.1's, which rewrote its ledger and history at every step)`,
      remedy: 'Inspect it with `skillopt runs show`, which reads both formats, and start a new run to continue training; nothing was changed.',
    });
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
 * The committed step records: the last line of history.jsonl for each step up to the last committed
 * one (a step killed after its line and before its commit ran again and wrote a newer line). A
 * torn last line is what a kill mid-write leaves; it is skipped.
 */
async function readCommittedHistory(runDirectory: string, lastCompletedStep: number): Promise<StepRecord[]> {
  const historyPath = path.join(runDirectory, RUN_FILES.history);
  const content = await readJsonLinesFile<StepRecord>(historyPath, {
    accept(value) {
      const parsed = stepRecordReader.safeParse(value);
      return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: 'not a step record' };
    },
  });
  if (content.malformedLines.length > 0)
    throw runFileError({
      filePath: historyPath,
      problem: `has ${content.malformedLines.length} line(s) that are not step records (the first is line ${content.malformedLines[0]!.lineNumber})`,
      remedy: `Delete it: it is rebuilt from ${RUN_FILES.stepsDirectory}/step_NNNN/${RUN_FILES.stepRecord} on the next resume. Nothing was changed.`,
    });
  // history.jsonl is derived data (each record is also the step's step_record.json): a deleted one is rebuilt.
  const records = content.records.length > 0 || lastCompletedStep === 0 ? content.records : await readStepRecordFiles(runDirectory);
  return lastRecordPerStep(records, lastCompletedStep);
}

/** Every step's own steps/step_NNNN/step_record.json, in step order (none when there is no steps folder). */
export async function readStepRecordFiles(runDirectory: string): Promise<StepRecord[]> {
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
    const record = await readJsonFileIfExists(path.join(stepsDirectory, name, RUN_FILES.stepRecord), stepRecordReader, { description: 'a step record' });
    if (record !== undefined) records.push(record);
  }
  return records;
}

/** Each step's last record, up to `lastCompletedStep`, in step order. */
export function lastRecordPerStep(records: readonly StepRecord[], lastCompletedStep: number): StepRecord[] {
  const byStep = new Map<number, StepRecord>();
  for (const record of records) if (record.step <= lastCompletedStep) byStep.set(record.step, record);
  return [...byStep.values()].sort((a, b) => a.step - b.step);
}

const stepRecordReader = tolerantSchema(stepRecordSchema);

async function requireDirectory(directory: string): Promise<void> {
  let isDirectory: boolean;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
    throw runFileError({ filePath: directory, problem: 'does not exist', remedy: 'Check the run directory path.' });
  }
  if (!isDirectory)
    throw runFileError({ filePath: directory, problem: 'is not a directory', remedy: 'Pass the run directory (the one holding runtime_state.json).' });
}
