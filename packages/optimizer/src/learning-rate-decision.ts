import { type ChatModel, type Edit, EMPTY_USAGE } from '@skillopt/contract';
import { z } from 'zod';
import { invalidOption } from '@skillopt/runtime-kit';
import { scheduledLearningRate, validateLearningRateSettings, type LearningRateScheduleSettings } from './learning-rate-schedule.js';
import { contextSections, type PromptContext } from './prompt-sections.js';
import { renderStagePrompt } from './prompt-templates.js';
import { renderNumberedEdits } from './proposed-edit.js';
import { repairedRepliesField, type StageResult } from './stage-result.js';
import { requestStructuredReply } from './structured-reply.js';

/** What the optimizer is told about the step when it chooses a learning rate. */
export interface StepEvidence {
  /** Scored trajectories in the step. */
  rolloutCount: number;
  /** Mean pass mark of the step's trajectories. */
  meanHard: number;
  meanSoft: number;
}

export interface LearningRateDecision {
  learningRate: number;
  /** `schedule` for a fixed schedule, `optimizer` when the optimizer chose. */
  decidedBy: 'schedule' | 'optimizer';
  /** The optimizer's number before it was kept within [min, max]; only for `optimizer`. */
  requested?: number;
  /** True when the optimizer's number was outside [min, max] and was moved to the nearest bound. */
  clamped?: boolean;
  reasoning?: string;
}

export interface LearningRateDecisionOptions extends PromptContext {
  model: ChatModel;
  signal: AbortSignal;
  skill: string;
  /** The merged edits the learning rate will be applied to. */
  edits: readonly Edit[];
  minLearningRate: number;
  maxLearningRate: number;
  evidence?: StepEvidence;
  maxOutputTokens?: number;
}

// Models write numbers as strings now and then ("3"); a number in words or a fraction is not taken.
const wholeNumber = z.preprocess((value) => (typeof value === 'string' && /^\s*-?\d+\s*$/.test(value) ? Number(value) : value), z.int());
const decisionReplySchema = z.object({ reasoning: z.string().nullish(), learningRate: wholeNumber });

function renderEvidence(evidence: StepEvidence | undefined): string {
  if (evidence === undefined) return '(no step statistics were provided)';
  return [
    `- scored trajectories: ${evidence.rolloutCount}`,
    `- mean pass mark (hard): ${evidence.meanHard.toFixed(3)}`,
    `- mean graded score (soft): ${evidence.meanSoft.toFixed(3)}`,
  ].join('\n');
}

/**
 * The autonomous learning rate: the optimizer proposes how many edits to apply this step, within
 * [min, max] (`purpose: 'lr-decide'`). With no edits there is nothing to decide and no call is made.
 */
export async function decideLearningRate(options: LearningRateDecisionOptions): Promise<StageResult<LearningRateDecision>> {
  const { minLearningRate: minimum, maxLearningRate: maximum } = options;
  if (!Number.isInteger(minimum) || minimum < 0 || !Number.isInteger(maximum) || maximum < minimum) {
    throw invalidOption(`the learning-rate range must be whole numbers with 0 <= min <= max, got [${minimum}, ${maximum}]`);
  }
  if (options.edits.length === 0) {
    return { ok: true, value: { learningRate: 0, decidedBy: 'optimizer', reasoning: 'no edits to apply' }, attempts: 0, usage: EMPTY_USAGE };
  }
  const prompt = renderStagePrompt('lr-decide', {
    minimum: String(minimum),
    maximum: String(maximum),
    contextSections: contextSections(options, { metaSkill: true, rejectedEdits: true }),
    skill: options.skill,
    evidence: renderEvidence(options.evidence),
    editCount: String(options.edits.length),
    edits: renderNumberedEdits(options.edits),
  });
  const reply = await requestStructuredReply({
    model: options.model,
    signal: options.signal,
    prompt: 'lr-decide',
    messages: [{ role: 'user', content: prompt }],
    schema: decisionReplySchema,
    maxOutputTokens: options.maxOutputTokens ?? 2_048,
  });
  if (!reply.ok) return reply;
  const requested = reply.value.value.learningRate;
  const learningRate = Math.min(maximum, Math.max(minimum, requested));
  return {
    ok: true,
    value: {
      learningRate,
      decidedBy: 'optimizer',
      requested,
      clamped: learningRate !== requested,
      reasoning: reply.value.value.reasoning ?? '',
    },
    attempts: reply.attempts,
    usage: reply.usage,
    ...repairedRepliesField(reply.repairedReplies),
  };
}

export interface ChooseLearningRateOptions extends Omit<LearningRateDecisionOptions, 'minLearningRate' | 'maxLearningRate'> {
  settings: LearningRateScheduleSettings;
  /** 1-based, counted across epochs. */
  globalStep: number;
}

/** The step's learning rate under any schedule: computed for fixed ones, asked for when autonomous. */
export async function chooseLearningRate(options: ChooseLearningRateOptions): Promise<StageResult<LearningRateDecision>> {
  const { settings } = options;
  validateLearningRateSettings(settings);
  if (settings.schedule !== 'autonomous') {
    const learningRate = scheduledLearningRate({ ...settings, schedule: settings.schedule }, options.globalStep);
    return { ok: true, value: { learningRate, decidedBy: 'schedule' }, attempts: 0, usage: EMPTY_USAGE };
  }
  return decideLearningRate({ ...options, minLearningRate: settings.minLearningRate, maxLearningRate: settings.maxLearningRate });
}
