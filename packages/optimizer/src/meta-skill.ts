import { type ChatModel, EMPTY_USAGE } from '@skillopt/contract';
import { z } from 'zod';
import { renderStagePrompt } from './prompt-templates.js';
import { comparePairs, renderPairComparison, type ResultPair } from './slow-update.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';
import type { TrajectoryRenderLimits } from './trajectory-rendering.js';

export interface MetaSkillOptions {
  model: ChatModel;
  signal: AbortSignal;
  /** The skill at the end of the previous epoch. */
  previousSkill: string;
  /** The skill at the end of this epoch (before this epoch's slow update). */
  currentSkill: string;
  /** The strategy notes so far ('' at first). */
  previousMetaSkill: string;
  /** Results of both skills on the same tasks. */
  pairs: readonly ResultPair[];
  /**
   * Whether any later step will read the new notes. The meta skill is read by the next epoch's
   * reflection, merge, ranking and learning-rate prompts; after the last epoch nothing reads it, so
   * pass `false` there and no call is made (the original paid for a meta skill nobody used).
   */
  readByLaterSteps: boolean;
  trajectoryLimits?: TrajectoryRenderLimits;
  maxOutputTokens?: number;
}

export interface MetaSkill {
  /** The strategy notes later prompts include (`metaSkill` in their options). */
  metaSkill: string;
  reasoning: string;
  /** Set when no call was made, saying why (then `metaSkill` is the previous one). */
  skipped?: string;
}

const metaSkillReplySchema = z.object({
  reasoning: z.string().nullish(),
  metaSkill: z.string().refine((text) => text.trim() !== '', { message: 'metaSkill must not be empty' }),
});

/**
 * The meta skill: the optimizer's own cross-epoch strategy memory (`purpose: 'meta-skill'`),
 * written from how the previous and the current skill fared on the same tasks. It is returned as
 * text for later reflection prompts, never written into the skill the agent reads.
 */
export async function synthesizeMetaSkill(options: MetaSkillOptions): Promise<StageResult<MetaSkill>> {
  const unchanged = (skipped: string): StageResult<MetaSkill> => ({
    ok: true,
    value: { metaSkill: options.previousMetaSkill, reasoning: '', skipped },
    attempts: 0,
    usage: EMPTY_USAGE,
  });
  if (!options.readByLaterSteps) return unchanged('no later step reads the meta skill');
  const comparison = comparePairs(options.pairs);
  if (comparison.pairs.length === 0) return unchanged('no scored pairs to compare');
  const prompt = renderStagePrompt('meta-skill', {
    previousSkill: options.previousSkill,
    currentSkill: options.currentSkill,
    previousMetaSkill: options.previousMetaSkill.trim() === '' ? '(none yet)' : options.previousMetaSkill.trim(),
    comparison: renderPairComparison(comparison, options.trajectoryLimits),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt: 'meta-skill',
    messages: [{ role: 'user', content: prompt }],
    schema: metaSkillReplySchema,
    maxOutputTokens: options.maxOutputTokens ?? 8_192,
  });
  if (!reply.ok) return reply;
  return {
    ok: true,
    value: { metaSkill: reply.value.value.metaSkill.trim(), reasoning: reply.value.value.reasoning ?? '' },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}
