import path from 'node:path';
import {
  ERROR_CODES,
  SkillOptError,
  type Environment,
  type RolloutContext,
  type RolloutResult,
  type SplitName,
  type TaskItem,
  type TrajectoryTurn,
} from '@skillopt/contract';
import { parseLiveMathConfig, type LiveMathConfig, type LiveMathConfigInput } from './config.js';
import { scoreLiveMathReply, type LiveMathScore } from './evaluator.js';
import initialSkillText from './initial-skill.md';
import {
  LIVEMATH_TASK_TYPE,
  loadLiveMathRatioSplits,
  loadLiveMathSplitDirectory,
  shuffleItemChoices,
  type LiveMathChoice,
  type LiveMathTaskItem,
} from './items.js';
import { AGENT_TASK_NOTES, buildSystemPrompt, buildUserPrompt } from './prompt.js';
import { answerOnce } from '@skillopt/env-kit';

/** The env's id: what `env.name` says in a config. */
export const LIVEMATH_ENVIRONMENT_ID = 'livemath';

/** The initial skill shipped with the package (markdown). */
export const LIVEMATH_INITIAL_SKILL: string = initialSkillText;

/** Longest stretch of a hidden reference (theorem, sketch) quoted in the feedback. */
const REFERENCE_QUOTE_LIMIT = 3000;

function quote(text: string): string {
  return text.length <= REFERENCE_QUOTE_LIMIT ? text : `${text.slice(0, REFERENCE_QUOTE_LIMIT)} […]`;
}

function describeChoice(label: string | null, choices: readonly LiveMathChoice[]): string {
  if (label === null) return 'none recognised';
  const choice = choices.find((entry) => entry.label === label);
  return choice === undefined ? label : `${label}. ${choice.text}`;
}

/**
 * The evaluator's feedback as the optimizer reads it: what was read from the reply, which choice
 * that is, the correct choice, and the verdict; then, as the original did for its analyst, the
 * item's source theorem and proof sketch when it has them and they were not already in the prompt.
 * The target never sees this turn.
 */
export function describeEvaluation(
  score: LiveMathScore,
  item: Pick<LiveMathTaskItem, 'choices' | 'theorem' | 'sketch'>,
  shown: { theorem: boolean; sketch: boolean } = { theorem: false, sketch: false },
): string {
  const where =
    score.source === 'tag'
      ? 'from the last <answer> tag'
      : score.source === 'last-line'
        ? 'no <answer> tag found; taken from the last non-empty line'
        : 'the reply was empty';
  const lines = [
    'Evaluation',
    `Extracted answer: ${JSON.stringify(score.prediction)} (${where})`,
    `Chosen choice: ${describeChoice(score.predictedLabel, item.choices)}`,
    `Correct choice: ${describeChoice(score.correctLabel, item.choices)}`,
    score.failureReason === undefined ? 'Verdict: correct' : `Verdict: wrong: ${score.failureReason}`,
  ];
  if (item.theorem !== undefined && !shown.theorem) lines.push('', 'Reference theorem (not shown to the model):', quote(item.theorem));
  if (item.sketch !== undefined && !shown.sketch) lines.push('', 'Reference proof sketch (not shown to the model):', quote(item.sketch));
  return lines.join('\n');
}

function asLiveMathItem(item: TaskItem): LiveMathTaskItem {
  const choices = item.choices;
  const valid =
    typeof item.question === 'string' &&
    Array.isArray(item.references) &&
    typeof item.references[0] === 'string' &&
    Array.isArray(choices) &&
    choices.every((choice: unknown) => typeof (choice as LiveMathChoice | null)?.label === 'string' && typeof (choice as LiveMathChoice).text === 'string');
  if (!valid) {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `livemath item ${item.id} has no question, choices or correct label; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return item as LiveMathTaskItem;
}

/**
 * Rolls one item out: exactly one target call (`purpose: 'rollout'`) or one agent run (the user
 * prompt as `task.md`), scored by the picked label (hard = soft = 1 when correct). Errors of the
 * target, including the signal's abort reason, a crashed harness and the `exec_timeout`
 * ProviderError, propagate: the trainer retries them; they are never scored.
 */
export async function rolloutLiveMathItem(config: LiveMathConfig, taskItem: TaskItem, context: RolloutContext): Promise<RolloutResult> {
  const { signal, skill } = context;
  signal.throwIfAborted();
  const item = asLiveMathItem(taskItem);
  const shown = { theorem: config.use_theorem && item.theorem !== undefined, sketch: config.use_sketch && item.sketch !== undefined };
  const userPrompt = buildUserPrompt({
    question: item.question,
    choices: item.choices,
    ...(shown.theorem ? { theorem: item.theorem } : {}),
    ...(shown.sketch ? { sketch: item.sketch } : {}),
  });
  const started = Date.now();
  const reply = await answerOnce(
    {
      chat: { system: buildSystemPrompt(skill), user: userPrompt, maxOutputTokens: config.max_completion_tokens },
      agent: { text: userPrompt, notes: AGENT_TASK_NOTES },
    },
    context,
    config.exec_timeout * 1000,
  );
  const durationMs = Date.now() - started;
  const correctLabel = item.references[0] as string;
  const score = scoreLiveMathReply(reply.text, item.choices, correctLabel);
  const turns: TrajectoryTurn[] = [
    { role: 'user', content: userPrompt },
    { role: 'assistant', content: reply.text },
    { role: 'environment', content: describeEvaluation(score, item, shown) },
  ];
  const correctText = item.choices.find((choice) => choice.label === correctLabel)?.text ?? item.references[1] ?? '';
  const predictedText = item.choices.find((choice) => choice.label === score.predictedLabel)?.text;
  return {
    status: 'scored',
    id: item.id,
    taskType: item.taskType,
    hard: score.hard,
    soft: score.soft,
    prediction: score.predictedLabel ?? score.prediction,
    reference: `${correctLabel}. ${correctText}`,
    trajectory: score.failureReason === undefined ? { turns } : { turns, failureReason: score.failureReason },
    usage: reply.usage,
    durationMs,
    details: {
      predictedLabel: score.predictedLabel,
      ...(predictedText === undefined ? {} : { predictedText }),
      extractedAnswer: score.prediction,
      answerSource: score.source,
      correctLabel,
      correctText,
      theoremTypes: item.theorem_types,
      ...reply.details,
    },
  };
}

/** The LiveMathematicianBench environment for a config section (validated here, so a raw object works too). */
export function createLiveMathEnvironment(input: LiveMathConfigInput | LiveMathConfig = {}): Environment {
  const parsed = parseLiveMathConfig(input);
  // Relative paths are resolved once, against the working directory at creation.
  const resolve = (file: string): string => (file.trim() === '' ? file : path.resolve(file));
  const config: LiveMathConfig = {
    ...parsed,
    split_dir: resolve(parsed.split_dir),
    data_path: resolve(parsed.data_path),
    split_output_dir: resolve(parsed.split_output_dir),
  };
  let ratioSplits: Promise<Record<SplitName, LiveMathTaskItem[]>> | undefined;

  const loadAll = async (split: SplitName): Promise<LiveMathTaskItem[]> => {
    if (config.split_mode === 'split_dir') return loadLiveMathSplitDirectory(config.split_dir, split, { maxBytes: config.max_items_file_bytes });
    if (ratioSplits === undefined) {
      const loading = loadLiveMathRatioSplits(config);
      ratioSplits = loading;
      // A failed load is not remembered: the next call reads the files again.
      loading.catch(() => {
        if (ratioSplits === loading) ratioSplits = undefined;
      });
    }
    return [...(await ratioSplits)[split]];
  };

  return {
    specificationVersion: 'v1',
    id: LIVEMATH_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
    taskTypes: [LIVEMATH_TASK_TYPE],
    initialSkill: async () => LIVEMATH_INITIAL_SKILL,
    async loadSplit(split) {
      const all = await loadAll(split);
      const items = config.limit > 0 ? all.slice(0, config.limit) : all;
      return config.shuffle_choices ? items.map((item) => shuffleItemChoices(item, config.split_seed)) : items;
    },
    rollout: (item, context) => rolloutLiveMathItem(config, item, context),
  };
}
