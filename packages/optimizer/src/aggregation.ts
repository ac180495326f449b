import { addUsage, EMPTY_USAGE, type ChatModel, type Edit, type Usage } from '@skillopt/contract';
import { z } from 'zod';
import { DEFAULT_OPTIMIZER_CONCURRENCY, mapConcurrent } from './concurrency.js';
import { invalidOption } from '@skillopt/runtime-kit';
import { allOrAbort } from './linked-abort.js';
import { contextSections, type PromptContext } from './prompt-sections.js';
import { renderStagePrompt } from './prompt-templates.js';
import { checkEditFields, proposedEditShape, renderNumberedEdits, toEdit } from './proposed-edit.js';
import type { AnalystKind } from './reflection.js';
import { chunk } from './result-classification.js';
import { repairedRepliesField, type StageFailure, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';

/** One analyst's edits (an `AnalystReport` is one): the unit the merge works on. */
export interface EditPatch {
  kind: AnalystKind;
  edits: readonly Edit[];
}

export interface AggregationOptions extends PromptContext {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** The analysts' patches in reflection order (failure first, then by minibatch index). */
  patches: readonly EditPatch[];
  /** How many patches one merge call combines; at least 2. */
  mergeBatchSize: number;
  /** Merge calls of one level in flight at once, per kind (default 4). */
  concurrency?: number;
  maxOutputTokens?: number;
}

export interface AggregatedEdits {
  /** The merged edits: failure-driven ones take precedence where they conflicted. */
  edits: Edit[];
  /** Merge calls made that produced a usable reply. */
  mergeCalls: number;
}

type MergeOutcome = { ok: true; edits: Edit[]; usage: Usage; attempts: number; repairedReplies: number } | StageFailure;

function mergeReplySchema(inputCount: number) {
  const edit = z
    .object({
      ...proposedEditShape,
      mergedFrom: z
        .array(
          z
            .int()
            .min(1)
            .max(inputCount, { message: `input edits are numbered 1 to ${inputCount}` }),
        )
        .min(1, { message: 'name the input edits this edit covers' }),
    })
    .superRefine(checkEditFields);
  return z.object({
    reasoning: z.string().nullish(),
    edits: z.array(edit).min(1, {
      message: `the ${inputCount} input edits cannot merge into nothing; return the merged edits (an empty list would silently drop them all)`,
    }),
  });
}

/** The source of a merged edit from those of the edits it covers. */
function mergedSource(inputs: readonly Edit[]): Edit['source'] {
  const sources = new Set(inputs.map((edit) => edit.source));
  if (sources.size === 1) return inputs[0]?.source;
  return 'mixed';
}

async function mergeGroups(options: AggregationOptions, groups: readonly (readonly Edit[])[], signal: AbortSignal): Promise<MergeOutcome> {
  const inputs = groups.flat();
  const prompt = renderStagePrompt('merge', {
    contextSections: contextSections(options, { metaSkill: true, rejectedEdits: false }),
    skill: options.skill,
    editCount: String(inputs.length),
    groupCount: String(groups.length),
    edits: renderNumberedEdits(inputs),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal,
    prompt: 'merge',
    messages: [{ role: 'user', content: prompt }],
    schema: mergeReplySchema(inputs.length),
    maxOutputTokens: options.maxOutputTokens ?? 16_384,
  });
  if (!reply.ok) return reply;
  const edits = reply.value.value.edits.map((merged) => {
    const covered = [...new Set(merged.mergedFrom)].map((number) => inputs[number - 1] as Edit);
    // Support adds up the trajectories behind the covered edits: computed, never taken from the reply.
    const support = covered.reduce((total, edit) => total + edit.support, 0);
    return toEdit(merged, support, mergedSource(covered));
  });
  return { ok: true, edits, usage: reply.usage, attempts: reply.attempts, repairedReplies: reply.repairedReplies ?? 0 };
}

/** Merges one kind's patches level by level until a single group is left. */
async function mergeHierarchically(
  options: AggregationOptions,
  initial: readonly (readonly Edit[])[],
  concurrency: number,
  signal: AbortSignal,
): Promise<MergeOutcome & { mergeCalls?: number }> {
  let groups = initial;
  let usage = EMPTY_USAGE;
  let attempts = 0;
  let repairedReplies = 0;
  let mergeCalls = 0;
  while (groups.length > 1) {
    const chunks = chunk(groups, options.mergeBatchSize);
    const outcomes = await mapConcurrent(
      chunks,
      concurrency,
      async (group, _index, chunkSignal): Promise<MergeOutcome> =>
        // A chunk of one patch has nothing to merge: it passes through without a call.
        group.length === 1
          ? { ok: true, edits: [...(group[0] as readonly Edit[])], usage: EMPTY_USAGE, attempts: 0, repairedReplies: 0 }
          : mergeGroups(options, group, chunkSignal),
      { signal },
    );
    usage = addUsage(usage, ...outcomes.map((outcome) => outcome.usage));
    attempts += outcomes.reduce((total, outcome) => total + outcome.attempts, 0);
    const failure = outcomes.find((outcome): outcome is StageFailure => !outcome.ok);
    if (failure !== undefined) return { ...failure, usage, attempts };
    repairedReplies += outcomes.reduce((total, outcome) => total + (outcome.ok ? outcome.repairedReplies : 0), 0);
    mergeCalls += chunks.filter((group) => group.length > 1).length;
    groups = outcomes.map((outcome) => (outcome as { edits: Edit[] }).edits);
  }
  return { ok: true, edits: [...(groups[0] ?? [])], usage, attempts, repairedReplies, mergeCalls };
}

/**
 * Aggregation: the failure analysts' patches and the success analysts' patches are each merged
 * hierarchically in chunks of `mergeBatchSize` (one call per chunk of two or more, a level's calls
 * concurrent) until one group per kind is left; then one final call merges the two groups, failure
 * group first. Where there is nothing to merge (a single patch, or one kind only) no call is made.
 *
 * A merge reply that cannot be used, including an empty list for non-empty inputs, fails the whole
 * stage: concatenating the inputs instead would hand unmerged, conflicting edits to selection.
 */
export async function aggregateEdits(options: AggregationOptions): Promise<StageResult<AggregatedEdits>> {
  if (!Number.isInteger(options.mergeBatchSize) || options.mergeBatchSize < 2) {
    throw invalidOption(`mergeBatchSize must be a whole number of at least 2 (a merge call needs two patches to combine), got ${options.mergeBatchSize}`);
  }
  const concurrency = options.concurrency ?? DEFAULT_OPTIMIZER_CONCURRENCY;
  const nonEmpty = options.patches.filter((patch) => patch.edits.length > 0);
  const byKind = (kind: AnalystKind) => nonEmpty.filter((patch) => patch.kind === kind).map((patch) => patch.edits);
  const [failureGroup, successGroup] = await allOrAbort(options.signal, [
    (signal) => mergeHierarchically(options, byKind('failure'), concurrency, signal),
    (signal) => mergeHierarchically(options, byKind('success'), concurrency, signal),
  ]);
  if (failureGroup === undefined || successGroup === undefined) throw new Error('unreachable: two hierarchies ran');
  let usage = addUsage(failureGroup.usage, successGroup.usage);
  let attempts = failureGroup.attempts + successGroup.attempts;
  // A failure of the failure hierarchy is reported first, as it is the one that matters most.
  if (!failureGroup.ok) return { ...failureGroup, usage, attempts };
  if (!successGroup.ok) return { ...successGroup, usage, attempts };
  let mergeCalls = (failureGroup.mergeCalls ?? 0) + (successGroup.mergeCalls ?? 0);
  let repairedReplies = failureGroup.repairedReplies + successGroup.repairedReplies;
  if (failureGroup.edits.length === 0 || successGroup.edits.length === 0) {
    return {
      ok: true,
      value: { edits: [...failureGroup.edits, ...successGroup.edits], mergeCalls },
      usage,
      attempts,
      ...repairedRepliesField(repairedReplies),
    };
  }
  const final = await mergeGroups(options, [failureGroup.edits, successGroup.edits], options.signal);
  usage = addUsage(usage, final.usage);
  attempts += final.attempts;
  if (!final.ok) return { ...final, usage, attempts };
  mergeCalls += 1;
  repairedReplies += final.repairedReplies;
  return { ok: true, value: { edits: final.edits, mergeCalls }, usage, attempts, ...repairedRepliesField(repairedReplies) };
}
