import type { Usage } from '@skillopt/contract';

/** The optimizer stages, named after their prompt templates; each failure says which one failed. */
export const OPTIMIZER_STAGES = [
  'reflect-failure',
  'reflect-success',
  'merge',
  'rank',
  'lr-decide',
  'rewrite-from-suggestions',
  'full-rewrite',
  'slow-update',
  'meta-skill',
  'appendix-consolidate',
] as const;
export type OptimizerStage = (typeof OPTIMIZER_STAGES)[number];

/**
 * A stage whose model reply could not be used, even after one re-ask. It is a value, not a thrown
 * error: the step records it and moves on. Provider failures are different: they are thrown.
 */
export interface StageFailure {
  ok: false;
  stage: OptimizerStage;
  reason: string;
  /** Model calls made for this stage, the re-ask included. */
  attempts: number;
  /** Tokens those calls consumed, which were spent even though the stage failed. */
  usage: Usage;
}

export interface StageSuccess<Value> {
  ok: true;
  value: Value;
  /** Model calls made (0 when the stage needed none). */
  attempts: number;
  usage: Usage;
}

export type StageResult<Value> = StageSuccess<Value> | StageFailure;
