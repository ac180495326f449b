import { type ChatModel, type RolloutResult, type ScoredRollout, EMPTY_USAGE } from '@skillopt/contract';
import { z } from 'zod';
import { hasProtectedBlock, readProtectedBlock, writeProtectedBlock } from './protected-blocks.js';
import { markersIn } from './protected-regions.js';
import { renderStagePrompt } from './prompt-templates.js';
import { isFailedResult } from './result-classification.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';
import { DEFAULT_TRAJECTORY_RENDER_LIMITS, renderTrajectory, type TrajectoryRenderLimits } from './trajectory-rendering.js';

/** How one task fared under the previous epoch's skill and the current one. */
export const PAIR_CATEGORIES = ['regressed', 'persistent-failure', 'improved', 'stable-success'] as const;
export type PairCategory = (typeof PAIR_CATEGORIES)[number];

/** The same task rolled out with the previous epoch's skill and with the current one. */
export interface ResultPair {
  previous: RolloutResult;
  current: RolloutResult;
}

export interface ClassifiedPair {
  id: string;
  category: PairCategory;
  previous: ScoredRollout;
  current: ScoredRollout;
}

export interface PairComparison {
  pairs: ClassifiedPair[];
  counts: Record<PairCategory, number>;
  /** Ids of pairs left out because either rollout errored: no score, so no evidence. */
  excludedIds: string[];
}

export function categorisePair(previous: ScoredRollout, current: ScoredRollout): PairCategory {
  const previousPassed = !isFailedResult(previous);
  const currentPassed = !isFailedResult(current);
  if (previousPassed && !currentPassed) return 'regressed';
  if (!previousPassed && !currentPassed) return 'persistent-failure';
  if (!previousPassed && currentPassed) return 'improved';
  return 'stable-success';
}

/** Classifies each pair, in the order given; pairs with an errored side are excluded and listed. */
export function comparePairs(pairs: readonly ResultPair[]): PairComparison {
  const comparison: PairComparison = {
    pairs: [],
    counts: { regressed: 0, 'persistent-failure': 0, improved: 0, 'stable-success': 0 },
    excludedIds: [],
  };
  for (const { previous, current } of pairs) {
    if (previous.status !== 'scored' || current.status !== 'scored') {
      comparison.excludedIds.push(current.id);
      continue;
    }
    const category = categorisePair(previous, current);
    comparison.counts[category] += 1;
    comparison.pairs.push({ id: current.id, category, previous, current });
  }
  return comparison;
}

const SECTION_TITLES: Record<PairCategory, string> = {
  regressed: 'Regressions: passed with the previous skill, fail with the current one',
  'persistent-failure': 'Persistent failures: fail with both skills',
  improved: 'Improvements: failed with the previous skill, pass with the current one',
  'stable-success': 'Stable successes: pass with both skills',
};

/**
 * The comparison as prompt text: counts, then the categories in priority order. Regressions,
 * persistent failures and improvements show both trajectories (within the size limits); stable
 * successes are only listed, as they teach the least.
 */
export function renderPairComparison(comparison: PairComparison, limits: TrajectoryRenderLimits = DEFAULT_TRAJECTORY_RENDER_LIMITS): string {
  const detailed = comparison.pairs.filter((pair) => pair.category !== 'stable-success');
  const perTrajectory = Math.max(
    300,
    Math.min(limits.maxCharactersPerTrajectory, Math.floor(limits.maxCharactersPerPrompt / Math.max(1, detailed.length * 2))),
  );
  const lines = [`Tasks compared: ${comparison.pairs.length}`, ...PAIR_CATEGORIES.map((category) => `- ${category}: ${comparison.counts[category]}`)];
  for (const category of PAIR_CATEGORIES) {
    const inCategory = comparison.pairs.filter((pair) => pair.category === category);
    if (inCategory.length === 0) continue;
    lines.push('', `### ${SECTION_TITLES[category]} (${inCategory.length})`);
    if (category === 'stable-success') {
      lines.push(...inCategory.map((pair) => `- ${pair.id}`));
      continue;
    }
    for (const pair of inCategory) {
      lines.push(
        '',
        `#### Task ${pair.id}`,
        'With the previous skill:',
        renderTrajectory(pair.previous, 1, perTrajectory),
        'With the current skill:',
        renderTrajectory(pair.current, 2, perTrajectory),
      );
    }
  }
  return lines.join('\n');
}

export function readSlowUpdateGuidance(skill: string): string {
  return readProtectedBlock(skill, 'slow-update');
}

/** Writes the guidance into the slow-update block, creating the block at the end if absent. */
export function writeSlowUpdateGuidance(skill: string, guidance: string): string {
  return writeProtectedBlock(skill, 'slow-update', guidance);
}

/** Adds an empty slow-update block when there is none (the first epoch's placeholder). */
export function ensureSlowUpdateBlock(skill: string): string {
  return hasProtectedBlock(skill, 'slow-update') ? skill : writeProtectedBlock(skill, 'slow-update', '');
}

export interface SlowUpdateOptions {
  model: ChatModel;
  signal: AbortSignal;
  /** The skill at the end of the previous epoch. */
  previousSkill: string;
  /** The skill now, which the guidance is written into. */
  currentSkill: string;
  /** Results of both skills on the same tasks. */
  pairs: readonly ResultPair[];
  trajectoryLimits?: TrajectoryRenderLimits;
  maxOutputTokens?: number;
}

export interface SlowUpdate {
  /** The current skill with the new guidance in its slow-update block: a candidate for the gate. */
  skill: string;
  guidance: string;
  reasoning: string;
  comparison: Omit<PairComparison, 'pairs'> & { pairs: Array<{ id: string; category: PairCategory }> };
  /** Set when no call was made, saying why (then `skill` is the current skill unchanged). */
  skipped?: string;
}

const slowUpdateReplySchema = z.object({
  reasoning: z.string().nullish(),
  guidance: z
    .string()
    .refine((text) => text.trim() !== '', { message: 'guidance must not be empty' })
    .refine((text) => markersIn(text).length === 0, { message: 'guidance must not contain <!-- ... --> marker lines' }),
});

/**
 * The slow update at an epoch boundary: from the same tasks run with the previous and the current
 * skill, the optimizer writes guidance (`purpose: 'slow-update'`) into the slow-update protected
 * block, creating the block if absent. Returns the candidate skill; the gate decides on it.
 */
export async function synthesizeSlowUpdate(options: SlowUpdateOptions): Promise<StageResult<SlowUpdate>> {
  const comparison = comparePairs(options.pairs);
  const summary = { ...comparison, pairs: comparison.pairs.map((pair) => ({ id: pair.id, category: pair.category })) };
  const previousGuidance = readSlowUpdateGuidance(options.currentSkill);
  if (comparison.pairs.length === 0) {
    return {
      ok: true,
      value: { skill: options.currentSkill, guidance: previousGuidance, reasoning: '', comparison: summary, skipped: 'no scored pairs to compare' },
      attempts: 0,
      usage: EMPTY_USAGE,
    };
  }
  const prompt = renderStagePrompt('slow-update', {
    previousSkill: options.previousSkill,
    currentSkill: options.currentSkill,
    previousGuidance: previousGuidance === '' ? '(none yet)' : previousGuidance,
    comparison: renderPairComparison(comparison, options.trajectoryLimits),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt: 'slow-update',
    messages: [{ role: 'user', content: prompt }],
    schema: slowUpdateReplySchema,
    maxOutputTokens: options.maxOutputTokens ?? 8_192,
  });
  if (!reply.ok) return reply;
  const guidance = reply.value.value.guidance.trim();
  return {
    ok: true,
    value: { skill: writeSlowUpdateGuidance(options.currentSkill, guidance), guidance, reasoning: reply.value.value.reasoning ?? '', comparison: summary },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}
