import { ERROR_CODES, SkillOptError, type Environment, type RolloutContext, type RolloutResult, type TaskItem, type TrajectoryTurn } from '@skillopt/contract';
import { answerOnce, createSplitSource } from '@skillopt/env-kit';
import { parseSearchQaConfig, type SearchQaConfig, type SearchQaConfigInput } from './config.js';
import { scoreSearchQaReply, type SearchQaScore } from './evaluator.js';
import initialSkillText from './initial-skill.md';
import { SEARCHQA_TASK_TYPE, searchQaItemMapper, type SearchQaTaskItem } from './items.js';
import { AGENT_TASK_NOTES, buildSystemPrompt, buildUserPrompt } from './prompt.js';

/** The env's id: what `env.name` says in a config. */
export const SEARCHQA_ENVIRONMENT_ID = 'searchqa';

/** The initial skill shipped with the package (markdown). */
export const SEARCHQA_INITIAL_SKILL: string = initialSkillText;

function formatScore(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(4);
}

/** The evaluator's feedback as the optimizer reads it: what was scored, against what, and why it failed. */
export function describeEvaluation(score: SearchQaScore, references: readonly string[]): string {
  const where =
    score.source === 'tag'
      ? 'from the last <answer> tag'
      : score.source === 'last-line'
        ? 'no <answer> tag found; taken from the last non-empty line'
        : 'the reply was empty';
  const lines = [
    'Evaluation',
    `Extracted answer: ${JSON.stringify(score.prediction)} (${where})`,
    `Reference answers: ${references.map((reference) => JSON.stringify(reference)).join(' | ')}`,
    `Exact match: ${score.em}   Token F1: ${formatScore(score.f1)}`,
    score.failureReason === undefined ? 'Verdict: correct' : `Verdict: wrong: ${score.failureReason}`,
  ];
  return lines.join('\n');
}

function asSearchQaItem(item: TaskItem): SearchQaTaskItem {
  if (typeof item.question !== 'string' || !Array.isArray(item.references)) {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `searchqa item ${item.id} has no question or no references; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return item as SearchQaTaskItem;
}

/**
 * Rolls one item out: exactly one target call (`purpose: 'rollout'`) or one agent run (the user
 * prompt as `task.md`), scored from the reply by exact match (hard) and token F1 (soft). Errors of
 * the target, including the signal's abort reason, a crashed harness and the `exec_timeout`
 * ProviderError, propagate: the trainer retries them; they are never scored.
 */
export async function rolloutSearchQaItem(config: SearchQaConfig, taskItem: TaskItem, context: RolloutContext): Promise<RolloutResult> {
  context.signal.throwIfAborted();
  const item = asSearchQaItem(taskItem);
  const userPrompt = buildUserPrompt(item.question, item.context, config.max_context_chars);
  const started = Date.now();
  const reply = await answerOnce(
    {
      chat: { system: buildSystemPrompt(context.skill), user: userPrompt, maxOutputTokens: config.max_completion_tokens },
      agent: { text: userPrompt, notes: AGENT_TASK_NOTES },
    },
    context,
    config.exec_timeout * 1000,
  );
  const durationMs = Date.now() - started;
  const score = scoreSearchQaReply(reply.text, item.references);
  const turns: TrajectoryTurn[] = [
    { role: 'user', content: userPrompt },
    { role: 'assistant', content: reply.text },
    { role: 'environment', content: describeEvaluation(score, item.references) },
  ];
  return {
    status: 'scored',
    id: item.id,
    taskType: item.taskType,
    hard: score.hard,
    soft: score.soft,
    prediction: score.prediction,
    reference: item.references.join(' | '),
    trajectory: score.failureReason === undefined ? { turns } : { turns, failureReason: score.failureReason },
    usage: reply.usage,
    durationMs,
    details: {
      em: score.em,
      f1: score.f1,
      subEm: score.subEm,
      answerSource: score.source,
      ...reply.details,
      ...(item.answer_type === undefined ? {} : { answerType: item.answer_type }),
    },
  };
}

/** The SearchQA environment for a config section (validated here, so a raw object works too). */
export function createSearchQaEnvironment(input: SearchQaConfigInput | SearchQaConfig = {}): Environment {
  const config = parseSearchQaConfig(input);
  const splits = createSplitSource(config, searchQaItemMapper);

  return {
    specificationVersion: 'v1',
    id: SEARCHQA_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
    taskTypes: [SEARCHQA_TASK_TYPE],
    initialSkill: async () => SEARCHQA_INITIAL_SKILL,
    loadSplit: (split) => splits.load(split),
    rollout: (item, context) => rolloutSearchQaItem(config, item, context),
  };
}
