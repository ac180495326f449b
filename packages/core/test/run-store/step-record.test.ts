import { tolerantSchema } from '@skillopt/contract';
import { historySchema, stepRecordSchema, type StepRecord } from '../../src/run-store/step-record';
import { acceptedStepRecord, rejectedStepRecord } from './step-record-fixtures';

/** What every record has besides its outcome's own fields. */
const { learningRate: _learningRate, candidateHash: _candidateHash, gate: _gate, outcome: _outcome, ...common } = acceptedStepRecord(4);

const RECORD_OF_EVERY_OUTCOME: StepRecord[] = [
  acceptedStepRecord(4),
  rejectedStepRecord(4),
  { ...common, reason: 'the analysts proposed no edit', outcome: 'no-edits' },
  { ...common, learningRate: 0, reason: 'the learning rate of this step is 0', outcome: 'no-edits' },
  {
    ...common,
    learningRate: 2,
    candidateHash: 'fedcba9876543210',
    reason: 'no selected edit changed the skill',
    editReports: [
      {
        index: 0,
        edit: { op: 'replace', target: 'absent', content: 'x', rationale: 'r', support: 1 },
        status: 'unmatched',
        reason: 'target "absent" does not occur in the skill',
      },
    ],
    outcome: 'unchanged',
  },
  { ...common, stageFailure: { stage: 'merge', prompt: 'merge', reason: 'no JSON in the reply', attempts: 2 }, outcome: 'stage-failed' },
  { ...common, reason: 'every training rollout of this step failed for infrastructure reasons; nothing to reflect on', outcome: 'nothing-scored' },
];

// Two records as runs wrote them before the step record had a schema of its own (the demo's steps
// 1 and 3), with a field this version never writes.
const WRITTEN_BEFORE = [
  {
    step: 1,
    epoch: 1,
    stepInEpoch: 1,
    trainItemIds: [['demo-056', 'demo-012']],
    trainScores: [{ hard: 0.08333333333333333, soft: 0.41302910052910063, scored: 12, excluded: 0 }],
    learningRate: 4,
    candidateHash: '16e4e1063bd8c042',
    gate: {
      strategy: 'strict',
      action: 'accept',
      accepted: true,
      reason: 'candidate is strictly higher: 0.6000 vs 0.1667 on 30 paired item(s)',
      candidateScore: 0.6,
      incumbentScore: 0.16666666666666666,
      itemsEvaluated: 30,
      itemsTotal: 30,
    },
    outcome: 'accepted',
    currentSkillHash: '16e4e1063bd8c042',
    currentScore: 0.6,
    bestScore: 0.6,
    optimizerCalls: 5,
    optimizerUsage: { inputTokens: 5775, outputTokens: 1077, estimated: true },
    wallTimeSeconds: 12.5,
  },
  {
    step: 3,
    epoch: 1,
    stepInEpoch: 3,
    trainItemIds: [['demo-034', 'demo-033']],
    trainScores: [{ hard: 0.9166666666666666, soft: 0.9722222222222223, scored: 12, excluded: 0 }],
    reason: 'the analysts proposed no edit',
    outcome: 'no-edits',
    currentSkillHash: 'a804f100008ff581',
    currentScore: 0.8666666666666667,
    bestScore: 0.8666666666666667,
    optimizerCalls: 3,
    optimizerUsage: { inputTokens: 3603, outputTokens: 124, estimated: true },
  },
];

describe('the step record', () => {
  it('has one shape per outcome, each passing the producer schema as the trainer writes it', () => {
    for (const record of RECORD_OF_EVERY_OUTCOME) expect(stepRecordSchema.parse(record)).toEqual(record);
    expect(new Set(RECORD_OF_EVERY_OUTCOME.map((record) => record.outcome))).toEqual(
      new Set(['accepted', 'rejected', 'no-edits', 'unchanged', 'stage-failed', 'nothing-scored']),
    );
  });

  it('refuses a loose bag: a field its outcome does not have, or an outcome without its own fields', () => {
    expect(stepRecordSchema.safeParse({ ...acceptedStepRecord(1), selectionHard: 0.5 }).success).toBe(false);
    const { gate: _withoutGate, ...acceptedWithoutGate } = acceptedStepRecord(1);
    expect(stepRecordSchema.safeParse(acceptedWithoutGate).success).toBe(false);
    expect(stepRecordSchema.safeParse({ ...acceptedStepRecord(1), outcome: 'no-edits' }).success).toBe(false);
    expect(stepRecordSchema.safeParse({ step: 1, action: 'accept_new_best' }).success).toBe(false);
  });

  it('reads records of runs written before it, keeping the fields it does not know', () => {
    const history = tolerantSchema(historySchema).parse(WRITTEN_BEFORE);
    expect(history.map((record) => [record.step, record.outcome])).toEqual([
      [1, 'accepted'],
      [3, 'no-edits'],
    ]);
    const [accepted, noEdits] = history;
    expect(accepted?.outcome === 'accepted' && accepted.gate.reason).toBe('candidate is strictly higher: 0.6000 vs 0.1667 on 30 paired item(s)');
    expect(noEdits?.outcome === 'no-edits' && noEdits.reason).toBe('the analysts proposed no edit');
    expect(accepted).toMatchObject({ wallTimeSeconds: 12.5 });
    expect(tolerantSchema(stepRecordSchema).parse(WRITTEN_BEFORE[1])).toEqual(WRITTEN_BEFORE[1]);
  });

  it('reads a stage failure recorded before stages named their prompt, and words this version does not know', () => {
    const tolerant = tolerantSchema(stepRecordSchema);
    expect(tolerant.safeParse({ ...common, stageFailure: { stage: 'merge', reason: 'no JSON', attempts: 2 }, outcome: 'stage-failed' }).success).toBe(true);
    const gate = { ...acceptedStepRecord(1).gate, strategy: 'bayesian' };
    expect(tolerant.safeParse({ ...acceptedStepRecord(1), gate }).success).toBe(true);
    expect(stepRecordSchema.safeParse({ ...acceptedStepRecord(1), gate }).success).toBe(false);
  });
});
