import { z } from 'zod';
import { callWarningSchema } from './call-warning.js';
import { GATED_CANDIDATE_KINDS, OPTIMIZER_PROMPTS, OPTIMIZER_STAGES, type OptimizerPrompt } from './optimizer-stage.js';
import { tolerantSchema } from './tolerant-schema.js';
import { usageSchema } from './usage.js';

/**
 * Everything a run reports as it goes, one event per thing that happened, named noun first in
 * the past tense. The CLI's progress display, `--json` output and the dashboard read only this.
 * Every event carries its `runId` and an ISO `timestamp`. These schemas are the producer's, and
 * strict; a reader uses `readRunEvent` (or `runEventReaderSchema`), which keeps fields it does not
 * know and tells an event of a newer type apart from a damaged line.
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
  stage: z.enum(OPTIMIZER_STAGES),
  count: z.int().nonnegative(),
});

export const stageFailedEventSchema = z.strictObject({
  type: z.literal('stage-failed'),
  ...base,
  stage: z.enum(OPTIMIZER_STAGES),
  /** The prompt template whose reply could not be used, where the stage has more than one. */
  prompt: z.enum(OPTIMIZER_PROMPTS as unknown as [OptimizerPrompt, ...OptimizerPrompt[]]).optional(),
  epoch: z.int().positive().optional(),
  globalStep: z.int().positive().optional(),
  reason: z.string(),
});

/**
 * A change the agent optimizer made to its copy of the skill that was not turned into an edit: one
 * that touched a protected region, or that no edit can express. It never reaches the candidate.
 */
export const editRefusedEventSchema = z.strictObject({
  type: z.literal('edit-refused'),
  ...base,
  ...stepPosition,
  stage: z.enum(OPTIMIZER_STAGES),
  reason: z.string(),
  /** The start of the text the change touched, for the reader. */
  excerpt: z.string(),
});

/** Which candidate a gate judged: a step's, or the epoch-end slow update's (absent: a step's). */
const gatedStage = { stage: z.enum(GATED_CANDIDATE_KINDS).optional() };

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
  /** What the model could not honour in the call (an unknown field, a refused setting). */
  warnings: z.array(callWarningSchema).optional(),
});

/**
 * Where a distributed run's rollouts are (a distributed executor's, e.g. @skillopt/executor-bullmq):
 * the jobs waiting for a worker, and per worker the rollouts it runs now and has finished in this
 * session. Emitted as the counts change.
 */
export const rolloutJobsCountedEventSchema = z.strictObject({
  type: z.literal('rollout-jobs-counted'),
  ...base,
  queued: z.int().nonnegative(),
  workers: z.array(z.strictObject({ worker: z.string().min(1), running: z.int().nonnegative(), done: z.int().nonnegative() })),
});

export const runStoppedEventSchema = z.strictObject({
  type: z.literal('run-stopped'),
  ...base,
  reason: z.enum(['aborted', 'budget-spent', 'answer-pending', 'error']),
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
  /** The current skill when the run ended, on the test split. */
  testScoreFinal: z.number().optional(),
});

export const runEventSchema = z.discriminatedUnion('type', [
  runStartedEventSchema,
  epochStartedEventSchema,
  stepStartedEventSchema,
  itemRolledOutEventSchema,
  editsProposedEventSchema,
  stageFailedEventSchema,
  editRefusedEventSchema,
  candidateEvaluatedEventSchema,
  gateDecidedEventSchema,
  stepFinishedEventSchema,
  epochFinishedEventSchema,
  usageRecordedEventSchema,
  rolloutJobsCountedEventSchema,
  runStoppedEventSchema,
  runFinishedEventSchema,
]);
export type RunEvent = z.infer<typeof runEventSchema>;
export type RunEventType = RunEvent['type'];
/** The event of one type, e.g. `RunEventOf<'gate-decided'>`. */
export type RunEventOf<Type extends RunEventType> = Extract<RunEvent, { type: Type }>;

/** Every event type this release of the contract knows. */
export const RUN_EVENT_TYPES = runEventSchema.options.map((option) => option.shape.type.value) as readonly RunEventType[];

/**
 * The reader's schema of a run event: the same events, with fields it does not know kept and any
 * word accepted where a producer must use a known one (see tolerantSchema).
 */
export const runEventReaderSchema = tolerantSchema(runEventSchema);

/** One line of an events file as a reader sees it. */
export type RunEventReading =
  | { kind: 'event'; event: RunEvent }
  /** An event of a type this copy of the contract does not know: from a newer producer, so skipped. */
  | { kind: 'unknown-type'; type: string }
  /** Not an event at all, or an event of a known type without the fields that type requires. */
  | { kind: 'malformed'; reason: string };

/** Reads one event tolerantly: unknown fields are kept, an unknown type is skipped, not an error. */
export function readRunEvent(value: unknown): RunEventReading {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return { kind: 'malformed', reason: 'not a JSON object' };
  const type = (value as { type?: unknown }).type;
  if (typeof type !== 'string' || type === '') return { kind: 'malformed', reason: 'no event type' };
  if (!(RUN_EVENT_TYPES as readonly string[]).includes(type)) return { kind: 'unknown-type', type };
  const parsed = runEventReaderSchema.safeParse(value);
  if (parsed.success) return { kind: 'event', event: parsed.data };
  const issue = parsed.error.issues[0];
  const where = issue === undefined ? 'its shape' : `${issue.path.join('.') || 'its shape'}: ${issue.message}`;
  return { kind: 'malformed', reason: `the ${type} event does not have what its type requires (${where})` };
}
