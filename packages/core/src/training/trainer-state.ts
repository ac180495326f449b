import { z } from 'zod';
import { ROLLOUT_PHASES } from '@skillopt/contract';
import { RejectedEditBuffer } from '@skillopt/optimizer';
import type { RunStore } from '../run-store/run-store.js';
import type { TrainingCounters } from './training-context.js';
import {
  epochEndMarkerSchema,
  selectionScoresSchema,
  skillReferenceSchema,
  type EpochEndMarker,
  type RuntimeState,
  type RuntimeStateInput,
  type SelectionScores,
  type SkillReference,
} from '../run-store/runtime-state.js';

/** A skill the run holds, with where it is stored and how it scored on the selection split. */
interface SkillStanding {
  text: string;
  reference: SkillReference;
  scores: SelectionScores;
  origin: string;
}

/** What the trainer keeps between steps; persisted in runtime_state.json at every commit. */
export interface TrainerState {
  lastCompletedStep: number;
  epoch: number;
  stepInEpoch: number;
  initial: SkillStanding;
  current: SkillStanding;
  best: SkillStanding & { step: number | null };
  rejectedEdits: RejectedEditBuffer;
  /** The optimizer's cross-epoch strategy notes ('' until the first meta skill). */
  metaSkill: string;
  /** The skill as it stood at the end of the last finished epoch, for the slow update's pairs. */
  previousEpochSkill: SkillReference | null;
  completedEpochEndStages: EpochEndMarker[];
  acceptedCandidates: number;
  rejectedCandidates: number;
  /**
   * The current skill as it stood when this epoch's end-of-epoch stages began: the slow update
   * replaces `current`, and a resumed meta skill must compare the same skills it would have.
   */
  epochEndBaseSkill: SkillReference | null;
}

const countersSchema = z.strictObject({
  rolloutsRun: z.int().nonnegative(),
  cacheHits: z.int().nonnegative(),
  retries: z.int().nonnegative(),
  excluded: z.array(
    z.strictObject({
      status: z.literal('excluded'),
      itemId: z.string(),
      sampleIndex: z.int().nonnegative(),
      error: z.strictObject({ code: z.string(), message: z.string() }),
      attempts: z.int().nonnegative(),
      phase: z.enum(ROLLOUT_PHASES),
    }),
  ),
  waves: z.int().nonnegative(),
  // Absent in the state of a run started before latency slots were counted: it resumes from none.
  latencySlots: z.strictObject({ slots: z.int().nonnegative(), calls: z.int().nonnegative() }).default({ slots: 0, calls: 0 }),
  stageFailures: z.array(z.strictObject({ globalStep: z.int().positive().nullable(), stage: z.string(), prompt: z.string().optional(), reason: z.string() })),
});

/**
 * The trainer's part of runtime_state.json, in the trainer's own schema (the run store is generic
 * over it): the initial skill and its baseline scores, the optimizer's memory (meta skill,
 * rejected edits), the epoch-end bookkeeping, the gate's tallies and the run's counters.
 */
export const trainerSnapshotSchema = z.strictObject({
  initial: z.strictObject({ ...skillReferenceSchema.shape, scores: selectionScoresSchema }),
  metaSkill: z.string(),
  previousEpochSkill: skillReferenceSchema.nullable(),
  epochEndBaseSkill: skillReferenceSchema.nullable(),
  completedEpochEndStages: z.array(epochEndMarkerSchema),
  acceptedCandidates: z.int().nonnegative(),
  rejectedCandidates: z.int().nonnegative(),
  /** The rejected-edit buffer of the current epoch, as the optimizer serialises it. */
  rejectedEdits: z.strictObject({ maxEntries: z.int().positive(), entries: z.array(z.json()) }),
  counters: countersSchema,
});
export type TrainerSnapshot = z.infer<typeof trainerSnapshotSchema>;

/** The commit of a trainer state and the run's counters (the counters live in the training context alone). */
export function toRuntimeState(state: TrainerState, counters: TrainingCounters): RuntimeStateInput<TrainerSnapshot> {
  return {
    lastCompletedStep: state.lastCompletedStep,
    epoch: state.epoch,
    stepInEpoch: state.stepInEpoch,
    current: { ...state.current.reference, ...state.current.scores, origin: state.current.origin },
    best: { ...state.best.reference, ...state.best.scores, origin: state.best.origin, step: state.best.step },
    trainer: {
      initial: { ...state.initial.reference, scores: state.initial.scores },
      metaSkill: state.metaSkill,
      previousEpochSkill: state.previousEpochSkill,
      epochEndBaseSkill: state.epochEndBaseSkill,
      completedEpochEndStages: state.completedEpochEndStages,
      acceptedCandidates: state.acceptedCandidates,
      rejectedCandidates: state.rejectedCandidates,
      rejectedEdits: {
        maxEntries: state.rejectedEdits.maxEntries,
        entries: state.rejectedEdits.toJSON().entries as TrainerSnapshot['rejectedEdits']['entries'],
      },
      counters: structuredClone(counters),
    },
  };
}

/** The trainer state and the counters a committed runtime_state.json describes, with the skill texts read back. */
export async function fromRuntimeState(
  store: RunStore<TrainerSnapshot>,
  runtime: RuntimeState<TrainerSnapshot>,
): Promise<{ state: TrainerState; counters: TrainingCounters }> {
  const { trainer } = runtime;
  const standing = async (reference: SkillReference, scores: SelectionScores, origin: string): Promise<SkillStanding> => ({
    text: await store.readSkill(reference.skillPath),
    reference: { skillPath: reference.skillPath, skillHash: reference.skillHash },
    scores,
    origin,
  });
  const scoresOf = (side: SelectionScores): SelectionScores => ({ score: side.score, selectionHard: side.selectionHard, selectionSoft: side.selectionSoft });
  const state: TrainerState = {
    lastCompletedStep: runtime.lastCompletedStep,
    epoch: runtime.epoch,
    stepInEpoch: runtime.stepInEpoch,
    initial: await standing(trainer.initial, scoresOf(trainer.initial.scores), 'initial-skill'),
    current: await standing(runtime.current, scoresOf(runtime.current), runtime.current.origin),
    best: { ...(await standing(runtime.best, scoresOf(runtime.best), runtime.best.origin)), step: runtime.best.step },
    rejectedEdits: RejectedEditBuffer.fromJSON({ version: 1, maxEntries: trainer.rejectedEdits.maxEntries, entries: trainer.rejectedEdits.entries }),
    metaSkill: trainer.metaSkill,
    previousEpochSkill: trainer.previousEpochSkill,
    completedEpochEndStages: [...trainer.completedEpochEndStages],
    acceptedCandidates: trainer.acceptedCandidates,
    rejectedCandidates: trainer.rejectedCandidates,
    epochEndBaseSkill: trainer.epochEndBaseSkill,
  };
  return { state, counters: structuredClone(trainer.counters) };
}

/** Whether a freshly scored skill beats the best so far (an unscored one never does). */
export function beatsBest(scores: SelectionScores, best: SelectionScores): boolean {
  if (scores.score === null) return false;
  return best.score === null || scores.score > best.score;
}
