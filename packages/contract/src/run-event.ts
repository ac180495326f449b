import { z } from 'zod';
import { usageSchema } from './usage.js';

/**
 * Everything a run reports as it goes, one event per thing that happened, named noun first in
 * the past tense. The CLI's progress display, `--json` output and the dashboard read only this.
 * Every event carries its `runId` and an ISO `timestamp`; new event types may be added without a
 * version bump, so readers ignore types they do not know.
 */
const base = { runId: z.string().min(1), timestamp: z.iso.datetime() };
const stepPosition = { epoch: z.int().positive(), step: z.int().positive(), globalStep: z.int().positive() };
const skillHash = z.string().regex(/^[0-9a-f]{16}$/, 'a skill hash is 16 lowercase hex characters');

export const ROLLOUT_PHASES = ['train', 'selection', 'test', 'slow-update', 'baseline'] as const;
export type RolloutPhase = (typeof ROLLOUT_PHASES)[number];

export const runStartedEventSchema = z.strictObject({
  type: z.literal('run-started'),
  ...base,
  runDirectory: z.string(),
  environmentId: z.string(),
  targetModel: z.string(),
  optimizerModel: z.string(),
  splitSizes: z.strictObject({ train: z.int(), val: z.int(), test: z.int() }),
  epochs: z.int().positive(),
  stepsPerEpoch: z.int().positive(),
  resumed: z.boolean(),
});

export const epochStartedEventSchema = z.strictObject({
  type: z.literal('epoch-started'),
  ...base,
  epoch: z.int().positive(),
});

export const stepStartedEventSchema = z.strictObject({
  type: z.literal('step-started'),
  ...base,
  ...stepPosition,
  itemIds: z.array(z.string()),
  learningRate: z.int().nonnegative(),
});

export const itemRolledOutEventSchema = z.strictObject({
  type: z.literal('item-rolled-out'),
  ...base,
  phase: z.enum(ROLLOUT_PHASES),
  skillHash,
  itemId: z.string(),
  sampleIndex: z.int().nonnegative(),
  /** Absent when the rollout errored. */
  hard: z.number().min(0).max(1).optional(),
  soft: z.number().min(0).max(1).optional(),
  errorCode: z.string().optional(),
  cached: z.boolean(),
  completed: z.int().nonnegative(),
  total: z.int().nonnegative(),
});

export const editsProposedEventSchema = z.strictObject({
  type: z.literal('edits-proposed'),
  ...base,
  ...stepPosition,
  stage: z.enum(['reflect', 'merge', 'select', 'rewrite', 'slow-update']),
  count: z.int().nonnegative(),
});

export const stageFailedEventSchema = z.strictObject({
  type: z.literal('stage-failed'),
  ...base,
  stage: z.string(),
  epoch: z.int().positive().optional(),
  globalStep: z.int().positive().optional(),
  reason: z.string(),
});

/** Which candidate a gate judged: a step's, or the epoch-end slow update's (absent: a step's). */
const gatedStage = { stage: z.enum(['step', 'slow-update']).optional() };

export const candidateEvaluatedEventSchema = z.strictObject({
  type: z.literal('candidate-evaluated'),
  ...base,
  ...stepPosition,
  ...gatedStage,
  candidateHash: skillHash,
  candidateScore: z.number(),
  incumbentScore: z.number(),
  itemsEvaluated: z.int().nonnegative(),
});

export const gateDecidedEventSchema = z.strictObject({
  type: z.literal('gate-decided'),
  ...base,
  ...stepPosition,
  ...gatedStage,
  accepted: z.boolean(),
  strategy: z.string(),
  reason: z.string(),
  candidateScore: z.number(),
  incumbentScore: z.number(),
});

export const stepFinishedEventSchema = z.strictObject({
  type: z.literal('step-finished'),
  ...base,
  ...stepPosition,
  accepted: z.boolean(),
  bestScore: z.number(),
  excludedItems: z.int().nonnegative(),
});

export const epochFinishedEventSchema = z.strictObject({
  type: z.literal('epoch-finished'),
  ...base,
  epoch: z.int().positive(),
  bestScore: z.number(),
});

export const usageRecordedEventSchema = z.strictObject({
  type: z.literal('usage-recorded'),
  ...base,
  role: z.string(),
  purpose: z.string(),
  provider: z.string(),
  modelId: z.string(),
  usage: usageSchema,
  /** null when the model is missing from the price table: unknown, never guessed. */
  costUsd: z.number().nonnegative().nullable(),
  cacheHit: z.boolean(),
  latencyMs: z.number().nonnegative(),
});

export const runStoppedEventSchema = z.strictObject({
  type: z.literal('run-stopped'),
  ...base,
  reason: z.enum(['aborted', 'budget-spent', 'error']),
  message: z.string(),
  resumeCommand: z.string(),
});

export const runFinishedEventSchema = z.strictObject({
  type: z.literal('run-finished'),
  ...base,
  baselineScore: z.number(),
  bestScore: z.number(),
  acceptedCandidates: z.int().nonnegative(),
  rejectedCandidates: z.int().nonnegative(),
  bestSkillPath: z.string(),
  testScoreInitial: z.number().optional(),
  testScoreBest: z.number().optional(),
});

export const runEventSchema = z.discriminatedUnion('type', [
  runStartedEventSchema,
  epochStartedEventSchema,
  stepStartedEventSchema,
  itemRolledOutEventSchema,
  editsProposedEventSchema,
  stageFailedEventSchema,
  candidateEvaluatedEventSchema,
  gateDecidedEventSchema,
  stepFinishedEventSchema,
  epochFinishedEventSchema,
  usageRecordedEventSchema,
  runStoppedEventSchema,
  runFinishedEventSchema,
]);
export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventType = RunEvent['type'];
/** The event of one type, e.g. `RunEventOf<'gate-decided'>`. */
export type RunEventOf<Type extends RunEventType> = Extract<RunEvent, { type: Type }>;
