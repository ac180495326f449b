import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { z } from 'zod';
import { skillHash } from '../skill-hash.js';
import { writeFileAtomic, writeJsonAtomic } from './atomic-write.js';
import { loadRunState, readReferencedSkill, type RunResumePoint } from './load-run-state.js';
import { readJsonFileIfExists } from './read-json-file.js';
import { createJsonLinesAppender } from './json-lines-file.js';
import { isFileNotFound, pathExists } from './run-file-error.js';
import { readRunIdentity, writeRunIdentity } from './run-identity.js';
import {
  RUN_FILES,
  checkedRelativePath,
  epochDirectoryPath,
  resolveInRun,
  skillVersionPath,
  stepDirectoryPath,
  type EpochArtifactKind,
} from './run-directory-layout.js';
import { RUNTIME_STATE_FORMAT_VERSION, runtimeStateSchema, type RuntimeState, type RuntimeStateInput, type SkillReference } from './runtime-state.js';
import { stepRecordSchema, type StepRecord } from './step-record.js';

/** Artifact content: text and bytes are written as they are, anything else as 2-space JSON. */
export type ArtifactData = string | Uint8Array | object | number | boolean | null;

export interface RunStore<Trainer = unknown> {
  /** The run directory, absolute. */
  readonly directory: string;
  /** The run's id: the one committed in runtime_state.json, or a new one for a fresh run. */
  readonly runId: string;
  /** The last committed state, or undefined before the first commit. */
  readonly state: RuntimeState<Trainer> | undefined;
  /** The committed step records, in step order. */
  readonly history: readonly StepRecord[];
  /** The absolute path of a run-relative path (`steps/step_0001/rollout`), for callers that write files themselves. */
  pathOf(relativePath: string): string;

  /** config.json, with a last pass of secret redaction (secret-looking keys and environment values). */
  writeConfig(config: object): Promise<void>;
  readConfig(): Promise<unknown>;

  /** Writes a skill text at a run-relative path and returns the reference a commit stores. */
  writeSkill(relativePath: string, text: string): Promise<SkillReference>;
  /** skills/skill_vNNNN.md: the current skill after global step `step` (0 = the initial skill). */
  writeSkillVersion(step: number, text: string): Promise<SkillReference>;
  readSkill(relativePath: string): Promise<string>;

  /** steps/step_NNNN/<name>; `name` may contain subdirectories. Returns the run-relative path. */
  writeStepArtifact(step: number, name: string, data: ArtifactData): Promise<string>;
  /** The artifact's text, or undefined when the step has no such artifact. */
  readStepArtifact(step: number, name: string): Promise<string | undefined>;
  /**
   * Removes what a killed, uncommitted attempt at `step` left in steps/step_NNNN, so nothing of
   * it is mixed into the new attempt (weak spot 2). Refuses committed steps: those are evidence.
   */
  clearUncommittedStep(step: number): Promise<void>;

  /** slow_update/epoch_XX/<name> or meta_skill/epoch_XX/<name>. Returns the run-relative path. */
  writeEpochArtifact(kind: EpochArtifactKind, epoch: number, name: string, data: ArtifactData): Promise<string>;
  readEpochArtifact(kind: EpochArtifactKind, epoch: number, name: string): Promise<string | undefined>;

  /**
   * Commits a finished step: its step_record.json, a line of history.jsonl and best_skill.md, then
   * runtime_state.json last. `record.step` must equal `state.lastCompletedStep`. The skills the
   * state points to must already be written (writeSkill) and match their hashes.
   */
  commitStep(input: { record: StepRecord; state: RuntimeStateInput<Trainer> }): Promise<RuntimeState<Trainer>>;
  /**
   * Commits state that is not a step (the baseline, an epoch-end stage, the end of training):
   * best_skill.md, then runtime_state.json. lastCompletedStep must stay what it was (0 for the
   * first commit): steps advance only through commitStep, so every committed step has its record.
   */
  commitRuntimeState(state: RuntimeStateInput<Trainer>): Promise<RuntimeState<Trainer>>;

  /** summary.json, with the same secret redaction as the config. */
  writeSummary(summary: object): Promise<void>;
  /** Closes the files the store keeps open (history.jsonl); a later commit opens them again. */
  close(): Promise<void>;
}

export interface RunStoreOptions<Trainer> {
  /** The schema of the trainer's part of runtime_state.json (its owner declares it). */
  trainerSchema: z.ZodType<Trainer>;
  /** The id for a fresh run; a resumed run keeps the id in its runtime_state.json. */
  runId?: string;
}

export interface CreateRunStoreOptions<Trainer> extends RunStoreOptions<Trainer> {
  /**
   * The run's configuration, written to config.json right after the run's identity (run.json) and
   * before anything else, so a run killed at any instant after createRunStore resumes.
   */
  config?: object;
}

/**
 * Starts a new run in `directory` (created when missing): writes its identity (run.json) and then
 * its config.json first. Refuses a directory that already holds a run — committed, or started
 * (config.json written) and stopped before its baseline — so a typo in `--out` cannot overwrite
 * one and no directory mixes two runs; resume those with openRunStore.
 */
export async function createRunStore<Trainer>(directory: string, options: CreateRunStoreOptions<Trainer>): Promise<RunStore<Trainer>> {
  const runDirectory = path.resolve(directory);
  await mkdir(runDirectory, { recursive: true });
  const resumePoint = await loadRunState(runDirectory, options.trainerSchema).catch((error: unknown) => {
    // Any runtime_state.json at all, even a broken one, means a run lives here.
    if (SkillOptError.isInstance(error)) throw runExistsError(runDirectory, undefined);
    throw error;
  });
  if (resumePoint !== undefined) throw runExistsError(runDirectory, resumePoint.state.lastCompletedStep);
  if (await pathExists(path.join(runDirectory, RUN_FILES.config))) throw runExistsError(runDirectory, 'nothing committed');
  const { runId } = await writeRunIdentity(runDirectory, options.runId ?? newRunId(runDirectory));
  if (options.config !== undefined) await writeJsonAtomic(path.join(runDirectory, RUN_FILES.config), options.config);
  return initialiseRunStore(runDirectory, undefined, runId, options.trainerSchema);
}

/**
 * Opens an existing run directory to resume it: loads and checks the committed state (see
 * loadRunState) and restores best_skill.md from the committed best skill if a kill left it out
 * of step. A directory without runtime_state.json opens as a fresh run, with the id of its
 * run.json (written now when it has none), so every session of the run has one run id.
 */
export async function openRunStore<Trainer>(directory: string, options: RunStoreOptions<Trainer>): Promise<RunStore<Trainer>> {
  const runDirectory = path.resolve(directory);
  const resumePoint = await loadRunState(runDirectory, options.trainerSchema);
  if (resumePoint !== undefined) {
    await restoreBestSkillCopy(resumePoint);
    return initialiseRunStore(runDirectory, resumePoint, resumePoint.state.runId, options.trainerSchema);
  }
  const identity = (await readRunIdentity(runDirectory)) ?? (await writeRunIdentity(runDirectory, options.runId ?? newRunId(runDirectory)));
  return initialiseRunStore(runDirectory, undefined, identity.runId, options.trainerSchema);
}

function initialiseRunStore<Trainer>(
  directory: string,
  resumePoint: RunResumePoint<Trainer> | undefined,
  runId: string,
  trainerSchema: z.ZodType<Trainer>,
): RunStore<Trainer> {
  const stateSchema = runtimeStateSchema(trainerSchema);
  let state = resumePoint?.state;
  let history: StepRecord[] = resumePoint?.history ?? [];
  let bestSkillCopyHash = resumePoint?.state.best.skillHash;
  // history.jsonl only grows: a step killed after its line and before runtime_state.json runs
  // again and appends a newer line, and readers keep the last line of each committed step.
  const historyFile = createJsonLinesAppender(resolveInRun(directory, RUN_FILES.history));
  // Commits are applied one at a time: two overlapping commits could otherwise interleave their files.
  let commitQueue: Promise<unknown> = Promise.resolve();

  const pathOf = (relativePath: string): string => resolveInRun(directory, relativePath);

  async function writeArtifact(relativePath: string, data: ArtifactData): Promise<string> {
    const filePath = pathOf(relativePath);
    if (typeof data === 'string' || data instanceof Uint8Array) await writeFileAtomic(filePath, data);
    else await writeJsonAtomic(filePath, data);
    return relativePath;
  }

  async function readOptional(relativePath: string): Promise<string | undefined> {
    try {
      return await readFile(pathOf(relativePath), 'utf8');
    } catch (error) {
      if (isFileNotFound(error)) return undefined;
      throw error;
    }
  }

  async function writeSkill(relativePath: string, text: string): Promise<SkillReference> {
    const checked = checkedRelativePath(relativePath, 'skill path');
    await writeFileAtomic(pathOf(checked), text);
    return { skillPath: checked, skillHash: skillHash(text) };
  }

  function completeState(input: RuntimeStateInput<Trainer>): RuntimeState<Trainer> {
    const candidate = { finished: false, ...input, formatVersion: RUNTIME_STATE_FORMAT_VERSION, runId, committedAt: new Date().toISOString() };
    const parsed = stateSchema.safeParse(candidate);
    if (!parsed.success) throw internalError(`The runtime state to commit is invalid:\n${z.prettifyError(parsed.error)}`);
    return parsed.data as RuntimeState<Trainer>;
  }

  /** Reads the skills a state points to, so a commit never refers to a missing or different file. */
  async function checkSkillsOf(next: RuntimeState<Trainer>): Promise<string> {
    await readReferencedSkill(directory, next.current, 'current');
    return readReferencedSkill(directory, next.best, 'best');
  }

  async function writeBestSkillCopy(next: RuntimeState<Trainer>, bestSkill: string): Promise<void> {
    if (bestSkillCopyHash === next.best.skillHash) return;
    await writeFileAtomic(pathOf(RUN_FILES.bestSkill), bestSkill);
    bestSkillCopyHash = next.best.skillHash;
  }

  function serialised<T>(work: () => Promise<T>): Promise<T> {
    const result = commitQueue.then(work);
    commitQueue = result.catch(() => undefined);
    return result;
  }

  return {
    directory,
    runId,
    get state() {
      return state;
    },
    get history() {
      return history;
    },
    pathOf,

    async writeConfig(config) {
      await writeJsonAtomic(pathOf(RUN_FILES.config), config);
    },
    async readConfig() {
      return readJsonFileIfExists(pathOf(RUN_FILES.config), z.unknown(), { description: 'the run’s configuration' });
    },

    writeSkill,
    writeSkillVersion: (step, text) => writeSkill(skillVersionPath(step), text),
    async readSkill(relativePath) {
      return readFile(pathOf(relativePath), 'utf8');
    },

    async writeStepArtifact(step, name, data) {
      return writeArtifact(`${stepDirectoryPath(step)}/${checkedRelativePath(name)}`, data);
    },
    async readStepArtifact(step, name) {
      return readOptional(`${stepDirectoryPath(step)}/${checkedRelativePath(name)}`);
    },
    close: () => historyFile.close(),
    async clearUncommittedStep(step) {
      const committed = state?.lastCompletedStep ?? 0;
      if (step <= committed) throw internalError(`Step ${step} is committed (the last committed step is ${committed}); its artifacts are kept as evidence.`);
      await rm(pathOf(stepDirectoryPath(step)), { recursive: true, force: true });
    },

    async writeEpochArtifact(kind, epoch, name, data) {
      return writeArtifact(`${epochDirectoryPath(kind, epoch)}/${checkedRelativePath(name)}`, data);
    },
    async readEpochArtifact(kind, epoch, name) {
      return readOptional(`${epochDirectoryPath(kind, epoch)}/${checkedRelativePath(name)}`);
    },

    commitStep({ record, state: input }) {
      return serialised(async () => {
        const parsedRecord = stepRecordSchema.safeParse(record);
        if (!parsedRecord.success) throw internalError(`The step record to commit is invalid:\n${z.prettifyError(parsedRecord.error)}`);
        const next = completeState(input);
        const previousStep = state?.lastCompletedStep ?? 0;
        if (parsedRecord.data.step !== next.lastCompletedStep)
          throw internalError(
            `A step commit must record its own step: the record is for step ${parsedRecord.data.step}, the state for ${next.lastCompletedStep}.`,
          );
        if (next.lastCompletedStep <= previousStep)
          throw internalError(`Step ${next.lastCompletedStep} cannot be committed after step ${previousStep}: steps are committed in increasing order.`);
        const bestSkill = await checkSkillsOf(next);
        // The commit protocol (docs/run-directory.md): everything else first, runtime_state.json last.
        await writeJsonAtomic(pathOf(`${stepDirectoryPath(next.lastCompletedStep)}/${RUN_FILES.stepRecord}`), parsedRecord.data);
        const nextHistory = [...history.filter((entry) => entry.step < parsedRecord.data.step), parsedRecord.data];
        await historyFile.append(parsedRecord.data);
        await writeBestSkillCopy(next, bestSkill);
        await writeJsonAtomic(pathOf(RUN_FILES.runtimeState), next);
        state = next;
        history = nextHistory;
        return next;
      });
    },

    commitRuntimeState(input) {
      return serialised(async () => {
        const next = completeState(input);
        const previousStep = state?.lastCompletedStep ?? 0;
        if (next.lastCompletedStep !== previousStep)
          throw internalError(
            `commitRuntimeState keeps lastCompletedStep at ${previousStep} (got ${next.lastCompletedStep}); a step is committed with commitStep and its record.`,
          );
        const bestSkill = await checkSkillsOf(next);
        await writeBestSkillCopy(next, bestSkill);
        await writeJsonAtomic(pathOf(RUN_FILES.runtimeState), next);
        state = next;
        return next;
      });
    },

    async writeSummary(summary) {
      await writeJsonAtomic(pathOf(RUN_FILES.summary), summary);
    },
  };
}

/** best_skill.md is a copy for people and deployment; the committed pointer is the truth. */
async function restoreBestSkillCopy(resumePoint: RunResumePoint<unknown>): Promise<void> {
  const copyPath = path.join(resumePoint.directory, RUN_FILES.bestSkill);
  let copy: string | undefined;
  try {
    copy = await readFile(copyPath, 'utf8');
  } catch (error) {
    if (!isFileNotFound(error)) throw error;
  }
  if (copy === undefined || skillHash(copy) !== resumePoint.state.best.skillHash) await writeFileAtomic(copyPath, resumePoint.bestSkill);
}

function runExistsError(directory: string, lastCompletedStep: number | 'nothing committed' | undefined): SkillOptError {
  const progress =
    lastCompletedStep === undefined
      ? ''
      : lastCompletedStep === 'nothing committed'
        ? ' that stopped before its baseline, with nothing committed'
        : ` (last completed step ${lastCompletedStep})`;
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `${directory} already holds a run${progress}. Resume it with \`skillopt train --resume ${directory}\` (--set changes its settings), or choose another output directory.`,
    details: { directory, ...(typeof lastCompletedStep === 'number' ? { lastCompletedStep } : {}) },
  });
}

function internalError(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message });
}

function newRunId(directory: string): string {
  const base = path.basename(directory).replace(/[^A-Za-z0-9_.-]/g, '-') || 'run';
  return `${base}-${randomBytes(4).toString('hex')}`;
}
