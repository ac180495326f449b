import { readFile } from 'node:fs/promises';
import {
  ERROR_CODES,
  SkillOptError,
  messageText,
  type Environment,
  type PackageManifest,
  type RolloutContext,
  type RolloutResult,
  type SplitName,
  type TaskItem,
} from '@skillopt/contract';
import { z } from 'zod';
import { createLlmJudge } from '../judge/llm-judge.js';
import { scoreTask } from '../judge/score-task.js';
import { readLearnedRules, writeLearnedRules } from '../learned-block/learned-rules.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { rulesOfSkillText, skillTextOfRules } from './learned-skill.js';
import { replayMessages } from './replay-prompt.js';
import { NIGHT_TASK_TYPE, nightTaskItem } from './night-task-items.js';

/** The env id a night's run config names; run setup is handed this package for it. */
export const NIGHT_ENVIRONMENT_ID = 'sleep-night';

/** The most output a replayed answer may take. */
const REPLAY_OUTPUT_TOKENS = 2_048;

const nightEnvironmentConfigSchema = z.strictObject({
  /** The night's task file (`skillopt.sleep.tasks.v1`), every task with its split. */
  tasks_file: z.string().min(1),
  /** The skill document whose learned block the night trains, as it was when the night began. */
  document_file: z.string().min(1),
});
export type NightEnvironmentConfig = z.infer<typeof nightEnvironmentConfigSchema>;

export const nightEnvironmentManifest: PackageManifest<'env', NightEnvironmentConfig> = {
  kind: 'env',
  id: NIGHT_ENVIRONMENT_ID,
  specificationVersion: 'v1',
  configSchema: nightEnvironmentConfigSchema,
  description: "One night of SkillOpt-Sleep: the tasks mined from a developer's sessions, replayed with a skill document's learned rules and judged.",
};

/**
 * A night as core trains it: the items are the mined tasks, the skill is the learned block's
 * rules (see learned-skill.ts), and a rollout replays one task with the document those rules make
 * and judges the reply. A backend failure propagates, so core retries it and then excludes the
 * task: it is never a score.
 */
export async function createNightEnvironment(config: NightEnvironmentConfig): Promise<Environment> {
  const { file: taskFile } = await readTaskFile(config.tasks_file);
  const document = await readFile(config.document_file, 'utf8');
  const tasks = new Map<string, TaskRecord>(taskFile.tasks.map((task) => [task.id, task]));
  return {
    specificationVersion: 'v1',
    id: NIGHT_ENVIRONMENT_ID,
    targetKinds: ['chat'],
    taskTypes: [NIGHT_TASK_TYPE],
    async initialSkill() {
      return skillTextOfRules(readLearnedRules(document));
    },
    async loadSplit(split: SplitName): Promise<TaskItem[]> {
      return taskFile.tasks.filter((task) => task.split === split).map(nightTaskItem);
    },
    async rollout(item: TaskItem, context: RolloutContext): Promise<RolloutResult> {
      const task = tasks.get(item.id);
      if (task === undefined) throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: `the night has no task ${item.id}` });
      if (context.target.kind !== 'chat')
        throw new SkillOptError({ code: ERROR_CODES.configInvalid, category: 'user', message: 'a night replays its tasks through a chat model' });
      const model = context.target.model;
      const replayDocument = writeLearnedRules(document, rulesOfSkillText(context.skill));
      const messages = replayMessages(task, replayDocument);
      const reply = await model.generate({ messages, maxOutputTokens: REPLAY_OUTPUT_TOKENS, purpose: 'replay', signal: context.signal });
      const toolsCalled = (reply.toolCalls ?? []).map((call) => call.toolName);
      // A rubric is graded by the target's own model, so its calls are metered and in the ledger.
      const judged = await scoreTask(task, reply.text, { toolsCalled, llmJudge: createLlmJudge({ model }), signal: context.signal });
      const common = { id: item.id, taskType: item.taskType, ...(reply.usage === undefined ? {} : { usage: reply.usage }) };
      // A task that cannot be judged is left out of the night before it starts (see nightTasks);
      // a judge whose reply stayed unusable gives no score at all, so core excludes the task.
      if (judged.status !== 'scored')
        return { ...common, status: 'errored', error: { code: `task-${judged.status}`, message: judged.reason, retryable: false } };
      const user = messages[1];
      return {
        ...common,
        status: 'scored',
        hard: judged.hard,
        soft: judged.soft,
        prediction: reply.text,
        ...(task.reference.trim() === '' ? {} : { reference: task.reference }),
        trajectory: {
          turns: [
            { role: 'user', content: user === undefined ? task.intent : messageText(user) },
            { role: 'assistant', content: reply.text },
          ],
          ...(judged.hard >= 1 ? {} : { failureReason: judged.rationale }),
        },
        details: { referenceKind: task.referenceKind, judgedBy: judged.method, rationale: judged.rationale, toolsCalled },
      };
    },
  };
}
