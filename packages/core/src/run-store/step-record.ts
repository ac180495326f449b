import { editSchema, OPTIMIZER_PROMPTS, OPTIMIZER_STAGES, usageSchema, type OptimizerPrompt } from '@skillopt/contract';
import { EDIT_APPLICATION_STATUSES } from '@skillopt/optimizer';
import { z } from 'zod';
import { GATE_STRATEGIES } from '../gates/gate-decision.js';

const candidateHash = z.string().regex(/^[0-9a-f]{16}$/, 'a skill hash is 16 lowercase hex characters');

// The fields are listed in the order they are written: the schema's order is the file's.
const rolledOut = {
  /** The global step number, counted from 1 across epochs. */
  step: z.int().positive(),
  epoch: z.int().positive(),
  stepInEpoch: z.int().positive(),
  /** Each batch's item ids, in order. */
  trainItemIds: z.array(z.array(z.string())),
  /** Each batch's means over its scored items, and how many were scored and excluded. */
  trainScores: z.array(z.strictObject({ hard: z.number(), soft: z.number(), scored: z.int().nonnegative(), excluded: z.int().nonnegative() })),
};

/** Where the run stands when the step ends, and what the step's optimizer calls cost. */
const standing = {
  currentSkillHash: candidateHash,
  /** Gate scores on the selection split; null when nothing was scored. */
  currentScore: z.number().nullable(),
  bestScore: z.number().nullable(),
  optimizerCalls: z.int().nonnegative(),
  optimizerUsage: usageSchema,
  /** Optimizer replies read only after their JSON was repaired, instead of re-asked; absent when none was. */
  repairedReplies: z.int().positive().optional(),
  /**
   * The run's critical path so far in latency slots (docs/adr/0009), counted when the step ended:
   * the difference to the step before is this step's. Absent in runs written before it was kept.
   */
  latencySlots: z.int().nonnegative().optional(),
};

/**
 * The most edits the step could apply: the rate chosen, or the one the step started with when it
 * ended before choosing (an autonomous schedule's ceiling). Absent when the step rewrote the skill
 * from the trajectories, and in runs written before every step recorded it.
 */
const learningRate = z.int().nonnegative().optional();

/** The gate's verdict as the step record keeps it; gate_decision.json has the whole evidence. */
export const stepGateSchema = z.strictObject({
  strategy: z.enum(GATE_STRATEGIES),
  action: z.enum(['accept', 'reject', 'force-accept']),
  accepted: z.boolean(),
  reason: z.string(),
  candidateScore: z.number(),
  incumbentScore: z.number(),
  itemsEvaluated: z.int().nonnegative(),
  itemsTotal: z.int().nonnegative(),
  /**
   * The candidate's score covers only `itemsEvaluated` of `itemsTotal` selection items: the gate
   * decided (a rejection, or a paired early stop) before the rest. Absent: scored on every item.
   */
  partial: z.literal(true).optional(),
});
export type StepGate = z.infer<typeof stepGateSchema>;

const stageFailureSchema = z.strictObject({
  stage: z.enum(OPTIMIZER_STAGES),
  /** The prompt template whose reply was unusable; runs written before stages named it have none. */
  prompt: z.enum(OPTIMIZER_PROMPTS as unknown as [OptimizerPrompt, ...OptimizerPrompt[]]).optional(),
  reason: z.string(),
  attempts: z.int().nonnegative(),
});

const editReportSchema = z.strictObject({
  index: z.int().nonnegative(),
  edit: editSchema,
  status: z.enum(EDIT_APPLICATION_STATUSES),
  reason: z.string(),
});

const gatedStep = { ...rolledOut, learningRate, candidateHash, gate: stepGateSchema };

/**
 * One entry of history.json and the content of steps/step_NNNN/step_record.json: one shape per
 * outcome, each with exactly the fields that outcome has. The trainer writes it and the run store
 * checks it strictly; readers use `tolerantSchema(stepRecordSchema)`, which keeps fields it does
 * not know, so records of older and newer runs with the same field names still read.
 */
export const stepRecordSchema = z.discriminatedUnion('outcome', [
  z.strictObject({ ...gatedStep, outcome: z.literal('accepted'), ...standing }),
  z.strictObject({ ...gatedStep, outcome: z.literal('rejected'), ...standing }),
  /** The analysts proposed nothing, or the learning rate of the step was 0. */
  z.strictObject({ ...rolledOut, learningRate, reason: z.string(), outcome: z.literal('no-edits'), ...standing }),
  /** The update gave back the incumbent's text: nothing to gate. */
  z.strictObject({
    ...rolledOut,
    learningRate,
    candidateHash,
    reason: z.string(),
    editReports: z.array(editReportSchema),
    outcome: z.literal('unchanged'),
    ...standing,
  }),
  /** A stage's reply was unusable even after a re-ask. */
  z.strictObject({ ...rolledOut, learningRate, stageFailure: stageFailureSchema, outcome: z.literal('stage-failed'), ...standing }),
  /** Every training rollout failed for infrastructure reasons (written by releases before such a batch stopped the run; still read). */
  z.strictObject({ ...rolledOut, reason: z.string(), outcome: z.literal('nothing-scored'), ...standing }),
]);
export type StepRecord = z.infer<typeof stepRecordSchema>;
/** How a step ended; only `accepted` changes the current skill. */
export type StepOutcome = StepRecord['outcome'];

export const historySchema = z.array(stepRecordSchema);
