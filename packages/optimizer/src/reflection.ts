import { addUsage, EMPTY_USAGE, type ChatModel, type Edit, type RolloutResult, type ScoredRollout, type Usage } from '@skillopt/contract';
import { z } from 'zod';
import { deduplicateAppendixNotes } from './appendix-notes.js';
import { DEFAULT_OPTIMIZER_CONCURRENCY, mapConcurrent } from './concurrency.js';
import { invalidOption, requirePositiveInteger } from '@skillopt/runtime-kit';
import { contextSections, type PromptContext } from './prompt-sections.js';
import { renderStagePrompt } from './prompt-templates.js';
import { proposedEditSchema, toEdit } from './proposed-edit.js';
import { chunk, classifyResults } from './result-classification.js';
import type { StageFailure } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';
import { DEFAULT_TRAJECTORY_RENDER_LIMITS, renderTrajectories, type TrajectoryRenderLimits } from './trajectory-rendering.js';

export type AnalystKind = 'failure' | 'success';

/**
 * Which analysts may write skill-aware appendix notes (execution-lapse reminders): none, only the
 * failure analysts, or both kinds.
 */
export type AppendixNoteSources = 'none' | 'failure-only' | 'both';

export interface ReflectionOptions extends PromptContext {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** The step's rollout results; errored ones are counted and left out. */
  results: readonly RolloutResult[];
  /** The most trajectories one analyst reads. Results are chunked in the order given. */
  minibatchSize: number;
  /** The most edits kept from one analyst (its reply is clipped to this). */
  maxEditsPerAnalyst: number;
  /** Skip the success analysts: only failures are reflected on. */
  failureOnly?: boolean;
  /** Analyst calls in flight at once (default 4). */
  concurrency?: number;
  trajectoryLimits?: TrajectoryRenderLimits;
  appendixNoteSources?: AppendixNoteSources;
  maxOutputTokens?: number;
}

/** What one analyst proposed, for one minibatch. */
export interface AnalystReport {
  kind: AnalystKind;
  /** The minibatch's position among those of its kind (0-based). */
  minibatchIndex: number;
  itemIds: string[];
  /** The kept edits; each edit's `support` is the number of trajectories in this minibatch. */
  edits: Edit[];
  /** How many edits the analyst proposed before clipping to `maxEditsPerAnalyst`. */
  proposedEditCount: number;
  reasoning: string;
  appendixNotes: string[];
  /** True when the reply's JSON was repaired: cut off (only its complete edits were kept) or with syntax slips fixed. */
  repaired: boolean;
  attempts: number;
}

export interface AnalystFailure extends StageFailure {
  kind: AnalystKind;
  minibatchIndex: number;
  itemIds: string[];
}

export interface ReflectionResult {
  /** Successful analysts ordered by kind (failure first), then minibatch index. */
  reports: AnalystReport[];
  /** Analysts whose reply could not be used, in the same order. */
  failures: AnalystFailure[];
  /** Results left out because their rollout errored. */
  erroredResultIds: string[];
  usage: Usage;
  /** Model calls made, re-asks included. */
  calls: number;
  /** Analysts whose reply was read only after its JSON was repaired. */
  repairedReplies: number;
}

const analystReplySchema = z.object({
  reasoning: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  edits: z.array(proposedEditSchema),
  appendixNotes: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
});

const APPENDIX_INSTRUCTIONS: Record<AnalystKind, string> = {
  failure:
    '\nSome failures happen although the skill already has the right rule and the agent simply did not follow it. ' +
    'Do not edit the skill for those: add a one-line reminder that points at the existing rule to `appendixNotes` instead. ' +
    'A reminder never introduces a new rule. When you cannot tell whether a rule is missing or was ignored, treat it as ignored.\n',
  success:
    '\nIf a success shows the agent following an existing rule that it often neglects, you may add a one-line reminder of that rule to `appendixNotes`. ' +
    'A reminder never introduces a new rule.\n',
};
const APPENDIX_REPLY_FIELD = ', "appendixNotes": ["<one-line reminder of an existing rule>"]';

interface Minibatch {
  kind: AnalystKind;
  minibatchIndex: number;
  results: ScoredRollout[];
}

/**
 * Reflection: one optimizer call per minibatch of failed (and, unless `failureOnly`, successful)
 * trajectories, each proposing edits with a rationale. All analysts run concurrently within the
 * bound; their outputs come back ordered by (kind, minibatch index), never by completion order.
 */
export async function reflect(options: ReflectionOptions): Promise<ReflectionResult> {
  requirePositiveInteger('minibatchSize', options.minibatchSize);
  requirePositiveInteger('maxEditsPerAnalyst', options.maxEditsPerAnalyst);
  const concurrency = options.concurrency ?? DEFAULT_OPTIMIZER_CONCURRENCY;
  if (!(concurrency === Number.POSITIVE_INFINITY || (Number.isInteger(concurrency) && concurrency >= 1))) {
    throw invalidOption(`concurrency must be a positive whole number, got ${concurrency}`);
  }
  const classified = classifyResults(options.results);
  const minibatches: Minibatch[] = [
    ...chunk(classified.failed, options.minibatchSize).map((results, minibatchIndex) => ({ kind: 'failure' as const, minibatchIndex, results })),
    ...(options.failureOnly
      ? []
      : chunk(classified.succeeded, options.minibatchSize).map((results, minibatchIndex) => ({ kind: 'success' as const, minibatchIndex, results }))),
  ];
  const outcomes = await mapConcurrent(minibatches, concurrency, (minibatch, _index, signal) => runAnalyst(options, minibatch, signal), {
    signal: options.signal,
  });
  const result: ReflectionResult = { reports: [], failures: [], erroredResultIds: classified.erroredIds, usage: EMPTY_USAGE, calls: 0, repairedReplies: 0 };
  for (const outcome of outcomes) {
    result.usage = addUsage(result.usage, outcome.usage);
    result.calls += outcome.attempts;
    if ('ok' in outcome) result.failures.push(outcome);
    else {
      const { usage: _usage, ...report } = outcome;
      result.reports.push(report);
      if (report.repaired) result.repairedReplies += 1;
    }
  }
  return result;
}

function noteSourceAllows(sources: AppendixNoteSources, kind: AnalystKind): boolean {
  return sources === 'both' || (sources === 'failure-only' && kind === 'failure');
}

async function runAnalyst(options: ReflectionOptions, minibatch: Minibatch, signal: AbortSignal): Promise<(AnalystReport & { usage: Usage }) | AnalystFailure> {
  const template = minibatch.kind === 'failure' ? 'reflect-failure' : 'reflect-success';
  const withNotes = noteSourceAllows(options.appendixNoteSources ?? 'none', minibatch.kind);
  const prompt = renderStagePrompt(template, {
    skill: options.skill,
    maxEdits: String(options.maxEditsPerAnalyst),
    trajectoryCount: String(minibatch.results.length),
    trajectories: renderTrajectories(minibatch.results, options.trajectoryLimits ?? DEFAULT_TRAJECTORY_RENDER_LIMITS),
    contextSections: contextSections(options, { metaSkill: true, rejectedEdits: true }),
    appendixInstructions: withNotes ? APPENDIX_INSTRUCTIONS[minibatch.kind] : '',
    appendixReplyField: withNotes ? APPENDIX_REPLY_FIELD : '',
  });
  const itemIds = minibatch.results.map((result) => result.id);
  const reply = await requestStructuredReply({
    model: options.model,
    signal,
    prompt: template,
    messages: [{ role: 'user', content: prompt }],
    schema: analystReplySchema,
    maxOutputTokens: options.maxOutputTokens ?? 16_384,
  });
  if (!reply.ok) return { ...reply, kind: minibatch.kind, minibatchIndex: minibatch.minibatchIndex, itemIds };
  const { value, repaired } = reply.value;
  // Support is the number of trajectories the analyst actually read, never a number it reports.
  const support = minibatch.results.length;
  return {
    kind: minibatch.kind,
    minibatchIndex: minibatch.minibatchIndex,
    itemIds,
    edits: value.edits.slice(0, options.maxEditsPerAnalyst).map((edit) => toEdit(edit, support, minibatch.kind)),
    proposedEditCount: value.edits.length,
    reasoning: value.reasoning,
    appendixNotes: withNotes ? deduplicateAppendixNotes(value.appendixNotes) : [],
    repaired,
    attempts: reply.attempts,
    usage: reply.usage,
  };
}
