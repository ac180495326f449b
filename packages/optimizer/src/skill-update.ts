import { type ChatModel, type Edit, type RolloutResult, EMPTY_USAGE } from '@skillopt/contract';
import { z } from 'zod';
import { applyEdits, type EditApplicationReport } from './edit-engine.js';
import { contextSections, type PromptContext } from './prompt-sections.js';
import { renderStagePrompt } from './prompt-templates.js';
import { renderNumberedEdits } from './proposed-edit.js';
import { detachProtectedRegions, markersIn, reattachProtectedRegions } from './protected-regions.js';
import { classifyResults } from './result-classification.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';
import { DEFAULT_TRAJECTORY_RENDER_LIMITS, renderTrajectories, type TrajectoryRenderLimits } from './trajectory-rendering.js';

/**
 * How selected edits become a candidate skill:
 * - `patch` — the edit engine applies them (no model call);
 * - `rewrite_from_suggestions` — the optimizer rewrites the skill, guided by them;
 * - `full_rewrite_minibatch` — the optimizer rewrites the skill straight from the trajectories.
 * The names are the original's config values, so its configs port over.
 */
export const SKILL_UPDATE_MODES = ['patch', 'rewrite_from_suggestions', 'full_rewrite_minibatch'] as const;
export type SkillUpdateMode = (typeof SKILL_UPDATE_MODES)[number];

export interface SkillUpdate {
  mode: SkillUpdateMode;
  /** The candidate skill. */
  skill: string;
  /** Patch mode: one row per edit. */
  reports?: EditApplicationReport[];
  /** Rewrite modes: the optimizer's one-line summary of each change. */
  changeSummary?: string[];
  reasoning?: string;
}

const rewriteReplySchema = z.object({
  reasoning: z.string().nullish(),
  changeSummary: z
    .array(z.string())
    .nullish()
    .transform((value) => value ?? []),
  newSkill: z
    .string()
    .refine((text) => text.trim() !== '', { message: 'newSkill must be the whole rewritten skill, not empty' })
    // The protected blocks were taken out before the call; a reply that writes markers would create
    // a second copy of a block (or a broken one) when they are put back.
    .refine((text) => markersIn(text).length === 0, { message: 'newSkill must not contain any <!-- ... --> marker lines' }),
});

interface RewriteCommonOptions extends PromptContext {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** Rewrites return a whole document, hence the generous default (64000). */
  maxOutputTokens?: number;
}

export interface RewriteFromSuggestionsOptions extends RewriteCommonOptions {
  /** The selected edits, read as suggestions, in priority order. */
  edits: readonly Edit[];
}

export interface RewriteFromTrajectoriesOptions extends RewriteCommonOptions {
  results: readonly RolloutResult[];
  trajectoryLimits?: TrajectoryRenderLimits;
}

async function rewrite(
  options: RewriteCommonOptions,
  prompt: 'rewrite-from-suggestions' | 'full-rewrite',
  fill: (body: string) => Record<string, string>,
  mode: SkillUpdateMode,
): Promise<StageResult<SkillUpdate>> {
  // The protected blocks never reach the model, so no rewrite can damage them; they are put back
  // byte for byte after the rewritten body.
  const { body, blocks } = detachProtectedRegions(options.skill);
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt,
    messages: [{ role: 'user', content: renderStagePrompt(prompt, fill(body.replace(/\s+$/, ''))) }],
    schema: rewriteReplySchema,
    maxOutputTokens: options.maxOutputTokens ?? 64_000,
  });
  if (!reply.ok) return reply;
  const { newSkill, changeSummary, reasoning } = reply.value.value;
  return {
    ok: true,
    value: { mode, skill: reattachProtectedRegions(newSkill, blocks), changeSummary, reasoning: reasoning ?? '' },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}

/** `patch`: the selected edits applied by the edit engine. */
export function applyPatchUpdate(skill: string, edits: readonly Edit[]): SkillUpdate {
  const result = applyEdits(skill, edits);
  return { mode: 'patch', skill: result.skill, reports: result.reports };
}

/**
 * `rewrite_from_suggestions`: the optimizer rewrites the skill following the selected edits
 * (`purpose: 'rewrite'`). No edits, no call: the skill is returned unchanged.
 */
export async function rewriteFromSuggestions(options: RewriteFromSuggestionsOptions): Promise<StageResult<SkillUpdate>> {
  if (options.edits.length === 0) {
    return { ok: true, value: { mode: 'rewrite_from_suggestions', skill: options.skill, changeSummary: [] }, attempts: 0, usage: EMPTY_USAGE };
  }
  return rewrite(
    options,
    'rewrite-from-suggestions',
    (body) => ({
      contextSections: contextSections(options, { metaSkill: false, rejectedEdits: true }),
      skill: body,
      editCount: String(options.edits.length),
      edits: renderNumberedEdits(options.edits),
    }),
    'rewrite_from_suggestions',
  );
}

/**
 * `full_rewrite_minibatch`: the optimizer rewrites the skill from the scored trajectories directly
 * (`purpose: 'rewrite'`). Errored results are left out; with no scored result there is no call.
 */
export async function rewriteFromTrajectories(options: RewriteFromTrajectoriesOptions): Promise<StageResult<SkillUpdate>> {
  const classified = classifyResults(options.results);
  const scored = [...classified.failed, ...classified.succeeded];
  if (scored.length === 0) {
    return { ok: true, value: { mode: 'full_rewrite_minibatch', skill: options.skill, changeSummary: [] }, attempts: 0, usage: EMPTY_USAGE };
  }
  return rewrite(
    options,
    'full-rewrite',
    (body) => ({
      contextSections: contextSections(options, { metaSkill: true, rejectedEdits: true }),
      skill: body,
      trajectoryCount: String(scored.length),
      trajectories: renderTrajectories(scored, options.trajectoryLimits ?? DEFAULT_TRAJECTORY_RENDER_LIMITS),
    }),
    'full_rewrite_minibatch',
  );
}

export type SkillUpdateOptions =
  | { mode: 'patch'; skill: string; edits: readonly Edit[] }
  | ({ mode: 'rewrite_from_suggestions' } & RewriteFromSuggestionsOptions)
  | ({ mode: 'full_rewrite_minibatch' } & RewriteFromTrajectoriesOptions);

/** The update step under any mode; patch mode makes no call and always succeeds. */
export async function updateSkill(options: SkillUpdateOptions): Promise<StageResult<SkillUpdate>> {
  switch (options.mode) {
    case 'patch':
      return { ok: true, value: applyPatchUpdate(options.skill, options.edits), attempts: 0, usage: EMPTY_USAGE };
    case 'rewrite_from_suggestions':
      return rewriteFromSuggestions(options);
    case 'full_rewrite_minibatch':
      return rewriteFromTrajectories(options);
  }
}
