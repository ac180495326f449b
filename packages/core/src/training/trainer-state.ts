import { z } from 'zod';
import { ROLLOUT_PHASES } from '@skillopt/contract';
import { RejectedEditBuffer } from '@skillopt/optimizer';
import type { RunStore } from '../run-store/run-store.js';
import type { TrainingCounters } from './training-context.js';
import { skillReferenceSchema, type RuntimeState, type RuntimeStateInput, type SelectionScores, type SkillReference } from '../run-store/runtime-state.js';

/** A skill the run holds, with where it is stored and how it scored on the selection split. */
export interface SkillStanding {
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
  completedEpochEndStages: RuntimeState['completedEpochEndStages'];
  acceptedCandidates: number;
  rejectedCandidates: number;
  /**
   * The current skill as it stood when this epoch's end-of-epoch stages began: the slow update
   * replaces `current`, and a resumed meta skill must compare the same skills it would have.
   */
  epochEndBaseSkill: SkillReference | null;
  /** The run's counters (exclusions, stage failures, rollouts, waves), kept across resumes. */
  counters: TrainingCounters;
}

/** Trainer state runtime_state.json has no field of its own for. */
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
  stageFailures: z.array(z.strictObject({ globalStep: z.int().positive().nullable(), stage: z.string(), prompt: z.string().optional(), reason: z.string() })),
});

const additionalStateSchema = z.strictObject({
  initialSkill: skillReferenceSchema,
  initialScores: z.strictObject({ score: z.number().nullable(), selectionHard: z.number().nullable(), selectionSoft: z.number().nullable() }),
  metaSkill: z.string(),
  previousEpochSkill: skillReferenceSchema.nullable(),
  acceptedCandidates: z.int().nonnegative(),
  rejectedCandidates: z.int().nonnegative(),
  rejectedEditBufferSize: z.int().positive(),
  epochEndBaseSkill: skillReferenceSchema.nullable(),
  counters: countersSchema,
});

export function toRuntimeState(state: TrainerState): RuntimeStateInput {
  const additional: z.input<typeof additionalStateSchema> = {
    initialSkill: state.initial.reference,
    initialScores: state.initial.scores,
    metaSkill: state.metaSkill,
    previousEpochSkill: state.previousEpochSkill,
    acceptedCandidates: state.acceptedCandidates,
    rejectedCandidates: state.rejectedCandidates,
    rejectedEditBufferSize: state.rejectedEdits.maxEntries,
    epochEndBaseSkill: state.epochEndBaseSkill,
    counters: state.counters,
  };
  return {
    lastCompletedStep: state.lastCompletedStep,
    epoch: state.epoch,
    stepInEpoch: state.stepInEpoch,
    current: { ...state.current.reference, ...state.current.scores, origin: state.current.origin },
    best: { ...state.best.reference, ...state.best.scores, origin: state.best.origin, step: state.best.step },
    baseline: state.initial.scores,
    rejectedEditBuffer: state.rejectedEdits.toJSON().entries as RuntimeState['rejectedEditBuffer'],
    completedEpochEndStages: state.completedEpochEndStages,
    additional: additional as RuntimeState['additional'],
  };
}

/** The trainer state a committed runtime_state.json describes, with the skill texts read back. */
export async function fromRuntimeState(store: RunStore, runtime: RuntimeState): Promise<TrainerState> {
  const additional = additionalStateSchema.parse(runtime.additional);
  const standing = async (reference: SkillReference, scores: SelectionScores, origin: string): Promise<SkillStanding> => ({
    text: await store.readSkill(reference.skillPath),
    reference: { skillPath: reference.skillPath, skillHash: reference.skillHash },
    scores,
    origin,
  });
  const scoresOf = (side: SelectionScores): SelectionScores => ({ score: side.score, selectionHard: side.selectionHard, selectionSoft: side.selectionSoft });
  return {
    lastCompletedStep: runtime.lastCompletedStep,
    epoch: runtime.epoch,
    stepInEpoch: runtime.stepInEpoch,
    initial: await standing(additional.initialSkill, additional.initialScores, 'initial-skill'),
    current: await standing(runtime.current, scoresOf(runtime.current), runtime.current.origin),
    best: { ...(await standing(runtime.best, scoresOf(runtime.best), runtime.best.origin)), step: runtime.best.step },
    rejectedEdits: RejectedEditBuffer.fromJSON({ version: 1, maxEntries: additional.rejectedEditBufferSize, entries: runtime.rejectedEditBuffer }),
    metaSkill: additional.metaSkill,
    previousEpochSkill: additional.previousEpochSkill,
    completedEpochEndStages: runtime.completedEpochEndStages,
    acceptedCandidates: additional.acceptedCandidates,
    rejectedCandidates: additional.rejectedCandidates,
    epochEndBaseSkill: additional.epochEndBaseSkill,
    counters: additional.counters,
  };
}

/** Whether a freshly scored skill beats the best so far (an unscored one never does). */
export function beatsBest(scores: SelectionScores, best: SelectionScores): boolean {
  if (scores.score === null) return false;
  return best.score === null || scores.score > best.score;
}
