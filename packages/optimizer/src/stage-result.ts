import type { OptimizerPrompt, OptimizerStage, Usage } from '@skillopt/contract';

/**
 * A stage whose model reply could not be used, even after one re-ask (or an agent optimizer's run
 * that left nothing to use). It is a value, not a thrown error: the step records it and moves on.
 * Provider failures of chat calls are different: they are thrown.
 */
export interface StageFailure {
  ok: false;
  /** The stage that failed (the contract's vocabulary), and the prompt template whose reply was unusable (none for the agent's `optimize`). */
  stage: OptimizerStage;
  prompt?: OptimizerPrompt;
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
  /** How many of those calls' replies were read only after their JSON was repaired; absent when none was. */
  repairedReplies?: number;
}

/** The `repairedReplies` field of a StageSuccess for a count: absent for 0. */
export function repairedRepliesField(count: number | undefined): { repairedReplies?: number } {
  return count === undefined || count === 0 ? {} : { repairedReplies: count };
}

export type StageResult<Value> = StageSuccess<Value> | StageFailure;
