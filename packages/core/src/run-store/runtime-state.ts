import { z } from 'zod';
import { RUN_DIRECTORY_FORMAT, checkedRelativePath } from './run-directory-layout.js';

/**
 * runtime_state.json: the resume pointer. It is the last file a commit writes, so whatever it
 * says was fully written before it (docs/run-directory.md, "Commit protocol").
 *
 * It has two owners. The run store owns what it needs to resume and to keep best_skill.md true:
 * the format, the run id, the last committed step and where it stood, and the current and best
 * skills with their hashes and scores. Everything else is the trainer's (its `trainer` part),
 * declared by the trainer's own schema: the store is generic over it and only checks it with
 * that schema. (Format 1 kept the trainer's fields beside the store's and an `additional` bag.)
 *
 * Differences from upstream, on purpose:
 * - skill paths are relative to the run directory, so a moved run directory resumes;
 * - each skill pointer carries the skill's hash, so a skill file changed or replaced after the
 *   commit is detected instead of silently trained on;
 * - scores are `number | null`, where null means "not evaluated yet". Upstream's `value or -1.0`
 *   turned a real 0.0 into "no baseline" and re-ran it (weak spot 1); here 0 stays 0;
 * - the learning rate and the batch order are pure functions of the global step and the seed, so
 *   they need no state (weak spot 3);
 * - hard and soft selection scores are kept next to the gate score instead of being confused
 *   with it (weak spot 16).
 */

export const RUNTIME_STATE_FORMAT_VERSION = RUN_DIRECTORY_FORMAT;

const score = z.number().nullable();
const relativePath = z.string().refine((value) => {
  try {
    checkedRelativePath(value);
    return true;
  } catch {
    return false;
  }
}, 'must be a path relative to the run directory, with no ".." segments');

/** A skill text stored in the run directory, as a commit refers to it. */
export const skillReferenceSchema = z.strictObject({
  /** Relative to the run directory, forward slashes: `skills/skill_v0003.md`. */
  skillPath: relativePath,
  /** skillHash() of the file's content. */
  skillHash: z.string().regex(/^[0-9a-f]{16}$/, 'a skill hash is 16 lowercase hex characters'),
});
export type SkillReference = z.infer<typeof skillReferenceSchema>;

/** Scores of a skill on the selection set: the gate's projection and the raw means it came from. */
export const selectionScoresSchema = z.strictObject({
  /** The gate-space score the accept/reject decision compares; null = not evaluated yet. */
  score,
  selectionHard: score,
  selectionSoft: score,
});
export type SelectionScores = z.infer<typeof selectionScoresSchema>;

export const skillStateSchema = z.strictObject({
  ...skillReferenceSchema.shape,
  ...selectionScoresSchema.shape,
  /** Where the skill came from: `initial-skill`, `step_0003`, `slow_update_epoch_02`, … */
  origin: z.string().min(1),
});
export type SkillState = z.infer<typeof skillStateSchema>;

export const bestSkillStateSchema = z.strictObject({
  ...skillStateSchema.shape,
  /** The global step that produced it; 0 for the initial skill, null when unknown. */
  step: z.int().nonnegative().nullable(),
});
export type BestSkillState = z.infer<typeof bestSkillStateSchema>;

/** An epoch-end stage that finished (`slow-update`, `meta-skill`, …), so a resume skips it. */
export const epochEndMarkerSchema = z.strictObject({
  epoch: z.int().positive(),
  stage: z.string().min(1),
});
export type EpochEndMarker = z.infer<typeof epochEndMarkerSchema>;

/** The run store's part of runtime_state.json, and the trainer's part as its own schema says. */
export function runtimeStateSchema<TrainerSchema extends z.ZodType>(trainerSchema: TrainerSchema) {
  return z.strictObject({
    formatVersion: z.literal(RUNTIME_STATE_FORMAT_VERSION),
    runId: z.string().min(1),
    /**
     * The global step (1-based across epochs) of the last committed step; 0 when only the baseline
     * is committed. The resumed run starts at lastCompletedStep + 1, and the learning-rate
     * scheduler is driven by the same global step (one definition, weak spot 3).
     */
    lastCompletedStep: z.int().nonnegative(),
    /** The epoch and the 1-based step within it of lastCompletedStep; 0 and 0 before the first step. */
    epoch: z.int().nonnegative(),
    stepInEpoch: z.int().nonnegative(),
    current: skillStateSchema,
    best: bestSkillStateSchema,
    /** The trainer's own state, in the trainer's schema. */
    trainer: trainerSchema,
    /** True once the run finished and wrote summary.json: resuming it then changes nothing. */
    finished: z.boolean(),
    /** When the state was committed (informational; nothing depends on it). */
    committedAt: z.iso.datetime(),
  });
}

export interface RuntimeState<Trainer = unknown> {
  formatVersion: typeof RUNTIME_STATE_FORMAT_VERSION;
  runId: string;
  lastCompletedStep: number;
  epoch: number;
  stepInEpoch: number;
  current: SkillState;
  best: BestSkillState;
  trainer: Trainer;
  finished: boolean;
  committedAt: string;
}

/** What a caller commits: the store fills in the format version, run id and commit time. */
export type RuntimeStateInput<Trainer = unknown> = Omit<RuntimeState<Trainer>, 'formatVersion' | 'runId' | 'committedAt' | 'finished'> & { finished?: boolean };

/** Whether an epoch-end stage was committed as done. */
export function isEpochEndStageCompleted(state: { completedEpochEndStages: readonly EpochEndMarker[] }, epoch: number, stage: string): boolean {
  return state.completedEpochEndStages.some((marker) => marker.epoch === epoch && marker.stage === stage);
}

/** The same state with one more epoch-end stage marked done (idempotent). */
export function withEpochEndStageCompleted<State extends { completedEpochEndStages: readonly EpochEndMarker[] }>(
  state: State,
  epoch: number,
  stage: string,
): State {
  if (isEpochEndStageCompleted(state, epoch, stage)) return state;
  return { ...state, completedEpochEndStages: [...state.completedEpochEndStages, { epoch, stage }] };
}
