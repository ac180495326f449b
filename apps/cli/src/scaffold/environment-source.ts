import type { ScaffoldContext } from './context.js';

/**
 * src/index.js: the package entry every SkillOpt env has (docs/contract.md §1): `manifest` and
 * `createEnvironment(config)`, the Environment loading its splits with env-kit's loadSplitItems and
 * rolling out one item with exactly one target call.
 */
export function buildEnvironmentSource(context: ScaffoldContext): string {
  return `// ${context.packageName}: the package entry SkillOpt loads. \`skillopt train\` finds it by the short
// name \`${context.name}\` (env.name in a run config) as the package ${context.packageName}, reads
// \`manifest\`, validates the config's \`env\` section with \`manifest.configSchema\` and calls
// \`createEnvironment(section)\`.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { loadSplitItems } from '@skillopt/env-kit';
import { z } from 'zod';
import { configSchema, parseConfig, SHIPPED_SPLIT_DIR } from './config.js';
import { describeScore, scoreReply } from './scoring.js';

export { configSchema, parseConfig, SHIPPED_SPLIT_DIR } from './config.js';
export { describeScore, scoreReply } from './scoring.js';

/** The env's id: what \`env.name\` says in a config. */
export const ENVIRONMENT_ID = '${context.name}';

/** Every item is one kind of task: answer a short question. */
export const TASK_TYPE = 'qa';

/** What \`skillopt train\` reads to find, configure and check this env. */
export const manifest = {
  kind: 'env',
  id: ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema,
  description: '${context.name}: short questions answered in an <answer> tag; hard = exact match, soft = token F1.',
};

/**
 * One item as stored in data/<split>/items.json, turned into a TaskItem: \`references\` are the gold
 * answers (scored against, never shown to the target); \`answer_type\` passes through.
 */
export const itemSchema = z
  .object({
    id: z.string().min(1),
    question: z.string().min(1),
    answers: z.array(z.string().min(1)).min(1),
    answer_type: z.string().min(1).optional(),
  })
  .transform((raw) => ({
    id: raw.id,
    taskType: TASK_TYPE,
    question: raw.question,
    references: raw.answers,
    ...(raw.answer_type === undefined ? {} : { answer_type: raw.answer_type }),
  }));

/** The fixed part of the system prompt: where the final answer goes. */
export const ANSWER_FORMAT_INSTRUCTION =
  'Answer the question in the user message. You may reason first; end your reply with your final answer inside <answer></answer>.';

/** The system prompt: the skill under a heading, then the answer-format instruction. */
export function buildSystemPrompt(skill) {
  const trimmed = skill.trim();
  return trimmed === '' ? ANSWER_FORMAT_INSTRUCTION : '# Skill\\n\\n' + trimmed + '\\n\\n# Task\\n\\n' + ANSWER_FORMAT_INSTRUCTION;
}

const INITIAL_SKILL_FILE = new URL('../skills/initial.md', import.meta.url);

/**
 * The package's factory. \`config\` is the run config's \`env\` section (validated here too, so a raw
 * object works in tests).
 */
export function createEnvironment(config = {}) {
  const settings = parseConfig(config);
  const splitDirectory = settings.split_dir.trim() === '' ? SHIPPED_SPLIT_DIR : path.resolve(settings.split_dir);

  return {
    specificationVersion: 'v1',
    id: ENVIRONMENT_ID,
    targetKinds: ['chat'],
    taskTypes: [TASK_TYPE],
    initialSkill: () => readFile(INITIAL_SKILL_FILE, 'utf8'),

    async loadSplit(split) {
      const items = await loadSplitItems(splitDirectory, split, itemSchema);
      return settings.limit > 0 ? items.slice(0, settings.limit) : items;
    },

    async rollout(item, { skill, target, signal }) {
      signal.throwIfAborted();
      if (target.kind !== 'chat') {
        throw new SkillOptError({
          code: ERROR_CODES.configInvalid,
          category: 'user',
          message: '${context.name} drives a chat model; this run gave it an agent harness as the target',
        });
      }
      const question = String(item.question ?? '');
      const references = Array.isArray(item.references) ? item.references : [];
      const userPrompt = '## Question\\n\\n' + question;
      const started = Date.now();
      // Exactly one target call. Its errors (a ProviderError after the backend's own retries, or the
      // signal's abort reason) propagate: the trainer retries them; they are never scored as 0.
      const reply = await target.model.generate({
        messages: [
          { role: 'system', content: buildSystemPrompt(skill) },
          { role: 'user', content: userPrompt },
        ],
        maxOutputTokens: settings.max_completion_tokens,
        purpose: 'rollout',
        signal,
      });
      const score = scoreReply(reply.text, references);
      return {
        status: 'scored',
        id: item.id,
        taskType: item.taskType,
        hard: score.hard,
        soft: score.soft,
        prediction: score.prediction,
        reference: references.join(' | '),
        usage: reply.usage,
        durationMs: Date.now() - started,
        trajectory: {
          turns: [
            { role: 'user', content: userPrompt },
            { role: 'assistant', content: reply.text },
            { role: 'environment', content: describeScore(score, references) },
          ],
          ...(score.failureReason === undefined ? {} : { failureReason: score.failureReason }),
        },
      };
    },
  };
}
`;
}
