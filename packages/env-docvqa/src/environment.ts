import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { answerOnce, createSplitSource } from '@skillopt/env-kit';
import { ERROR_CODES, SkillOptError, type Environment, type RolloutContext, type RolloutResult, type TaskItem, type TrajectoryTurn } from '@skillopt/contract';
import { parseDocVqaConfig, type DocVqaConfig, type DocVqaConfigInput } from './config.js';
import { DOCVQA_HARD_THRESHOLD, scoreDocVqaReply, type DocVqaScore } from './evaluator.js';
import initialSkillText from './initial-skill.md';
import { assertPageImagesExist, createDocVqaItemMapper, DOCVQA_TASK_TYPE, type DocVqaTaskItem } from './items.js';
import { describePageImage, describeWorkspacePageImage, pageImagePart, readPageImage, workspacePageImageName } from './page-image.js';
import { buildAgentTaskNotes, buildSystemPrompt, buildUserText } from './prompt.js';

/** The env's id: what `env.name` says in a config. */
export const DOCVQA_ENVIRONMENT_ID = 'docvqa';

/** The initial skill shipped with the package (markdown). */
export const DOCVQA_INITIAL_SKILL: string = initialSkillText;

/** The evaluator's feedback as the optimizer reads it: what was scored, against what, and why it failed. */
export function describeEvaluation(score: DocVqaScore, references: readonly string[]): string {
  const where =
    score.source === 'tag'
      ? 'from the last <answer> … </answer>'
      : score.source === 'last-line'
        ? 'no complete <answer> … </answer>; taken from the last non-empty line'
        : 'the reply was empty';
  const lines = [
    'Evaluation',
    `Extracted answer: ${JSON.stringify(score.prediction)} (${where})`,
    `Reference answers: ${references.map((reference) => JSON.stringify(reference)).join(' | ')}`,
    `ANLS: ${score.anls.toFixed(4)} (a pass needs ${DOCVQA_HARD_THRESHOLD}; case and repeated spaces are ignored, punctuation is not)`,
    score.failureReason === undefined ? 'Verdict: correct' : `Verdict: wrong: ${score.failureReason}`,
  ];
  return lines.join('\n');
}

function asDocVqaItem(item: TaskItem): DocVqaTaskItem {
  if (typeof item.question !== 'string' || !Array.isArray(item.references) || typeof item.image_path !== 'string' || item.image_path === '') {
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'user',
      message: `docvqa item ${item.id} has no question, references or image_path; load items with this env's loadSplit`,
      details: { id: item.id },
    });
  }
  return item as DocVqaTaskItem;
}

/**
 * Rolls one item out: exactly one target call (`purpose: 'rollout'`) whose user message carries the
 * question as text and the page image as a base64 data URL, or one agent run with the question as
 * `task.md` and the page image as a file beside it; scored by ANLS (hard = ANLS ≥ 0.999,
 * soft = ANLS). A missing or unreadable page image is a `data-invalid` error, never a score. Errors
 * of the target, including the signal's abort reason and the `exec_timeout` ProviderError,
 * propagate: the trainer retries them; they are never scored.
 */
export async function rolloutDocVqaItem(config: DocVqaConfig, taskItem: TaskItem, context: RolloutContext): Promise<RolloutResult> {
  const { signal, skill } = context;
  signal.throwIfAborted();
  const item = asDocVqaItem(taskItem);
  const image = await readPageImage(item.image_path, item.id, signal);
  const userText = buildUserText(item.question);
  const pageImageName = workspacePageImageName(image);
  const started = Date.now();
  const reply = await answerOnce(
    {
      chat: {
        system: buildSystemPrompt(skill),
        user: [{ type: 'text', text: userText }, pageImagePart(image, config.image_detail)],
        maxOutputTokens: config.max_completion_tokens,
      },
      agent: { text: userText, files: [{ path: pageImageName, content: Uint8Array.from(image.bytes) }], notes: buildAgentTaskNotes(pageImageName) },
    },
    context,
    config.exec_timeout * 1000,
  );
  const durationMs = Date.now() - started;
  const score = scoreDocVqaReply(reply.text, item.references);
  const turns: TrajectoryTurn[] = [
    {
      role: 'user',
      content: `${userText}\n\n${context.target.kind === 'agent' ? describeWorkspacePageImage(image) : describePageImage(image, config.image_detail)}`,
    },
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
      anls: score.anls,
      answerSource: score.source,
      ...reply.details,
      image: path.basename(image.file),
      ...(item.topic === undefined ? {} : { topic: item.topic }),
    },
  };
}

/**
 * Where relative image paths start: `image_root`, else the split root, else (ratio mode) the
 * directory of the pool file.
 */
function defaultImageRoot(config: DocVqaConfig): string {
  if (config.image_root.trim() !== '') return config.image_root;
  if (config.split_mode === 'split_dir') return config.split_dir;
  return existsSync(config.data_path) && statSync(config.data_path).isDirectory() ? config.data_path : path.dirname(config.data_path);
}

/** The DocVQA environment for a config section (validated here, so a raw object works too). */
export function createDocVqaEnvironment(input: DocVqaConfigInput | DocVqaConfig = {}): Environment {
  const config = parseDocVqaConfig(input);
  const imageRoot = path.resolve(defaultImageRoot(config));
  const splits = createSplitSource(config, createDocVqaItemMapper(imageRoot), {
    // A written split keeps working from anywhere: its image paths are absolute.
    writtenRaw: (raw, item) => ({ ...(raw as Record<string, unknown>), image_path: item.image_path }),
  });

  return {
    specificationVersion: 'v1',
    id: DOCVQA_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
    // The page is an image (a part of the chat message, a file in the agent's workspace): a target
    // that says it cannot read images would score nothing, so core refuses it before the run starts.
    requiredCapabilities: ['images'],
    taskTypes: [DOCVQA_TASK_TYPE],
    initialSkill: async () => DOCVQA_INITIAL_SKILL,
    async loadSplit(split) {
      const items = await splits.load(split);
      await assertPageImagesExist(
        items,
        `the ${split} split under ${config.split_mode === 'split_dir' ? path.resolve(config.split_dir) : path.resolve(config.data_path)}`,
      );
      return items;
    },
    rollout: (item, context) => rolloutDocVqaItem(config, item, context),
  };
}
