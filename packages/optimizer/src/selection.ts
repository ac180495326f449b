import { EMPTY_USAGE, type ChatModel, type Edit } from '@skillopt/contract';
import { z } from 'zod';
import { invalidOption } from '@skillopt/runtime-kit';
import { contextSections, type PromptContext } from './prompt-sections.js';
import { renderStagePrompt } from './prompt-templates.js';
import { renderNumberedEdits } from './proposed-edit.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';

export interface SelectionOptions extends PromptContext {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** The merged edits, in merge order. */
  edits: readonly Edit[];
  /** The step's learning rate: the most edits that may be kept. */
  learningRate: number;
  maxOutputTokens?: number;
}

export interface SelectedEdits {
  /** The kept edits, most important first (ranked) or in merge order (when all fit). */
  edits: Edit[];
  /** Their positions in the input list (0-based), in the same order. */
  selectedIndexes: number[];
  /** True when the optimizer ranked them; false when no ranking was needed. */
  ranked: boolean;
  reasoning: string;
}

function rankReplySchema(editCount: number) {
  return z.object({
    reasoning: z.string().nullish(),
    selected: z
      .array(
        z
          .int()
          .min(1)
          .max(editCount, { message: `edits are numbered 1 to ${editCount}` }),
      )
      .min(1, { message: 'select at least one edit' }),
  });
}

/**
 * Selection ("gradient clipping"): keeps at most `learningRate` edits. A budget of 0 keeps nothing
 * and makes no call; when every edit fits, all are kept without a call; otherwise the optimizer
 * ranks them (`purpose: 'rank'`) and its first `learningRate` distinct picks are kept.
 */
export async function selectEdits(options: SelectionOptions): Promise<StageResult<SelectedEdits>> {
  const { edits, learningRate } = options;
  if (!Number.isInteger(learningRate) || learningRate < 0) throw invalidOption(`learningRate must be a whole number of at least 0, got ${learningRate}`);
  if (learningRate === 0 || edits.length === 0) {
    return {
      ok: true,
      value: { edits: [], selectedIndexes: [], ranked: false, reasoning: learningRate === 0 ? 'the learning rate is 0' : 'no edits' },
      attempts: 0,
      usage: EMPTY_USAGE,
    };
  }
  if (edits.length <= learningRate) {
    return {
      ok: true,
      value: { edits: [...edits], selectedIndexes: edits.map((_edit, index) => index), ranked: false, reasoning: 'every edit fits the learning rate' },
      attempts: 0,
      usage: EMPTY_USAGE,
    };
  }
  const prompt = renderStagePrompt('rank', {
    budget: String(learningRate),
    editCount: String(edits.length),
    contextSections: contextSections(options, { metaSkill: true, rejectedEdits: false }),
    skill: options.skill,
    edits: renderNumberedEdits(edits),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt: 'rank',
    messages: [{ role: 'user', content: prompt }],
    schema: rankReplySchema(edits.length),
    maxOutputTokens: options.maxOutputTokens ?? 4_096,
  });
  if (!reply.ok) return reply;
  // Duplicates are dropped and the list is cut to the budget (checked before adding, so a budget
  // is never exceeded).
  const selectedIndexes: number[] = [];
  for (const number of reply.value.value.selected) {
    if (selectedIndexes.length >= learningRate) break;
    if (!selectedIndexes.includes(number - 1)) selectedIndexes.push(number - 1);
  }
  return {
    ok: true,
    value: {
      edits: selectedIndexes.map((index) => edits[index] as Edit),
      selectedIndexes,
      ranked: true,
      reasoning: reply.value.value.reasoning ?? '',
    },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}
