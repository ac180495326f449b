import type { StepRecord } from '../../src/run-store/step-record';

/** The record of one outcome. */
export type StepRecordOf<Outcome extends StepRecord['outcome']> = Extract<StepRecord, { outcome: Outcome }>;

/** What every step record has: its position, its rollout and where the run stood when it ended. */
function commonFields(step: number) {
  return {
    step,
    epoch: 1,
    stepInEpoch: step,
    trainItemIds: [['q1', 'q2']],
    trainScores: [{ hard: 0.5, soft: 0.5, scored: 2, excluded: 0 }],
    currentSkillHash: '0123456789abcdef',
    currentScore: 0.5,
    bestScore: 0.5,
    optimizerCalls: 3,
    optimizerUsage: { inputTokens: 30, outputTokens: 15 },
  };
}

/** A gated step's own fields: its candidate and the gate's verdict on it. */
function gatedFields(step: number, accepted: boolean) {
  return {
    ...commonFields(step),
    learningRate: 2,
    candidateHash: 'fedcba9876543210',
    gate: {
      strategy: 'strict' as const,
      action: accepted ? ('accept' as const) : ('reject' as const),
      accepted,
      reason: accepted ? 'candidate is strictly higher' : 'candidate is lower',
      candidateScore: accepted ? 0.5 : 0.25,
      incumbentScore: accepted ? 0.25 : 0.5,
      itemsEvaluated: 4,
      itemsTotal: 4,
    },
  };
}

/** A step whose candidate the gate took, as the trainer records it. */
export function acceptedStepRecord(step: number): StepRecordOf<'accepted'> {
  return { ...gatedFields(step, true), outcome: 'accepted' };
}

/** A step whose candidate the gate refused. */
export function rejectedStepRecord(step: number): StepRecordOf<'rejected'> {
  return { ...gatedFields(step, false), outcome: 'rejected' };
}
