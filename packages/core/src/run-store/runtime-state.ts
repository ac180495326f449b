import { z } from 'zod';
import { RUN_DIRECTORY_FORMAT, checkedRelativePath } from './run-directory-layout.js';

/**
 * runtime_state.json: the resume pointer. It is the last file a commit writes, so whatever it
 * says was fully written before it (docs/run-directory.md, "Commit protocol").
 *
 * Differences from upstream, on purpose:
 * - skill paths are relative to the run directory, so a moved run directory resumes;
 * - each skill pointer carries the skill's hash, so a skill file changed or replaced after the
 *   commit is detected instead of silently trained on;
 * - scores are `number | null`, where null means "not evaluated yet". Upstream's `value or -1.0`
 *   turned a real 0.0 into "no baseline" and re-ran it (weak spot 1); here 0 stays 0;
 * - the rejected-edit buffer is stored, so a resume continues with what the interrupted run had
 *   learned (weak spot 26); the learning rate and the batch order are pure functions of the global
 *   step and the seed, so they need no state (weak spot 3). `scheduler` and `rng` stay null unless
 *   a future trainer keeps state of its own there;
 * - hard and soft selection scores are kept next to the gate score instead of being confused
 *   with it (weak spot 16), and the baseline survives a resume.
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

export const runtimeStateSchema = z.strictObject({
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
  /** The initial skill's selection scores, kept so a resumed run still reports them. */
  baseline: selectionScoresSchema.nullable(),
  /** The rejected-edit buffer of the current epoch, as the optimizer serialises it. */
  rejectedEditBuffer: z.array(z.json()),
  /** Learning-rate scheduler state (its own JSON), null when it keeps none. */
  scheduler: z.json().nullable(),
  /** Random-generator state (its own JSON), null when none is kept. */
  rng: z.json().nullable(),
  completedEpochEndStages: z.array(epochEndMarkerSchema),
  /** Room for trainer state this format does not name yet; JSON only. */
  additional: z.record(z.string(), z.json()),
  /** True once the run finished and wrote summary.json: resuming it then changes nothing. */
  finished: z.boolean(),
  /** When the state was committed (informational; nothing depends on it). */
  committedAt: z.iso.datetime(),
});
export type RuntimeState = z.infer<typeof runtimeStateSchema>;

/** What a caller commits: the store fills in the format version, run id and commit time. */
export type RuntimeStateInput = Omit<
  RuntimeState,
  'formatVersion' | 'runId' | 'committedAt' | 'rejectedEditBuffer' | 'scheduler' | 'rng' | 'completedEpochEndStages' | 'additional' | 'baseline' | 'finished'
> &
  Partial<Pick<RuntimeState, 'rejectedEditBuffer' | 'scheduler' | 'rng' | 'completedEpochEndStages' | 'additional' | 'baseline' | 'finished'>>;

/** Whether an epoch-end stage was committed as done. */
export function isEpochEndStageCompleted(state: Pick<RuntimeState, 'completedEpochEndStages'>, epoch: number, stage: string): boolean {
  return state.completedEpochEndStages.some((marker) => marker.epoch === epoch && marker.stage === stage);
}

/** The same state with one more epoch-end stage marked done (idempotent). */
export function withEpochEndStageCompleted<State extends Pick<RuntimeState, 'completedEpochEndStages'>>(state: State, epoch: number, stage: string): State {
  if (isEpochEndStageCompleted(state, epoch, stage)) return state;
  return { ...state, completedEpochEndStages: [...state.completedEpochEndStages, { epoch, stage }] };
}
