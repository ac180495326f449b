import { readFile } from 'node:fs/promises';
import {
  ERROR_CODES,
  SkillOptError,
  type Environment,
  type PackageManifest,
  type RolloutContext,
  type RolloutResult,
  type SplitName,
  type TaskItem,
  type Usage,
} from '@skillopt/contract';
import { z } from 'zod';
import { createLlmJudge, type LlmJudge } from '../judge/llm-judge.js';
import { scoreTask } from '../judge/score-task.js';
import { readLearnedRules, writeLearnedRules } from '../learned-block/learned-rules.js';
import { readTaskFile } from '../tasks/task-file.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { rulesOfSkillText, skillTextOfRules } from './learned-skill.js';
import { replayOnAgent } from './agent-replay.js';
import { replayMessages, replayRequestText } from './replay-prompt.js';
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

/** One replayed answer, from a chat model or an agent harness alike. */
interface Replay {
  /** The request as the target saw it, for the trajectory. */
  request: string;
  text: string;
  /** The tools the target really called; undefined when its transcript does not say (an agent harness). */
  toolsCalled: readonly string[] | undefined;
  usage?: Usage | undefined;
  /** Grades rubric tasks: the chat target's own model, so its calls are metered and in the ledger. */
  llmJudge?: LlmJudge | undefined;
  details: Record<string, unknown>;
}

async function replayTask(task: TaskRecord, document: string, context: RolloutContext): Promise<Replay> {
  if (context.target.kind === 'agent') {
    // The harness reads the document where it reads its instructions, with its config home
    // isolated by its backend; a rubric is scored by its keywords, since no chat model is at hand.
    const run = await replayOnAgent(context.target.runner, task, document, context);
    return {
      request: `${run.prompt}\n\ntask.md:\n\n${replayRequestText(task)}`,
      text: run.finalText,
      toolsCalled: undefined,
      usage: run.usage,
      details: run.details,
    };
  }
  const model = context.target.model;
  const messages = replayMessages(task, document);
  const reply = await model.generate({ messages, maxOutputTokens: REPLAY_OUTPUT_TOKENS, purpose: 'replay', signal: context.signal });
  return {
    request: replayRequestText(task),
    text: reply.text,
    toolsCalled: (reply.toolCalls ?? []).map((call) => call.toolName),
    usage: reply.usage,
    llmJudge: createLlmJudge({ model }),
    details: {},
  };
}

/**
 * A night as core trains it: the items are the mined tasks, the skill is the learned block's
 * rules (see learned-skill.ts), and a rollout replays one task with the document those rules make
 * (through a chat model or an agent harness) and judges the reply. A backend failure propagates, so core retries it and then excludes the
 * task: it is never a score.
 */
export async function createNightEnvironment(config: NightEnvironmentConfig): Promise<Environment> {
  const { file: taskFile } = await readTaskFile(config.tasks_file);
  const document = await readFile(config.document_file, 'utf8');
  const tasks = new Map<string, TaskRecord>(taskFile.tasks.map((task) => [task.id, task]));
  return {
    specificationVersion: 'v1',
    id: NIGHT_ENVIRONMENT_ID,
    targetKinds: ['chat', 'agent'],
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
      const replayDocument = writeLearnedRules(document, rulesOfSkillText(context.skill));
      const replay = await replayTask(task, replayDocument, context);
      const judged = await scoreTask(task, replay.text, {
        toolsCalled: replay.toolsCalled,
        ...(replay.llmJudge === undefined ? {} : { llmJudge: replay.llmJudge }),
        signal: context.signal,
      });
      const common = { id: item.id, taskType: item.taskType, ...(replay.usage === undefined ? {} : { usage: replay.usage }) };
      // A task that cannot be judged is left out of the night before it starts (see nightTasks);
      // a judge whose reply stayed unusable gives no score at all, so core excludes the task.
      if (judged.status !== 'scored')
        return { ...common, status: 'errored', error: { code: `task-${judged.status}`, message: judged.reason, retryable: false } };
      return {
        ...common,
        status: 'scored',
        hard: judged.hard,
        soft: judged.soft,
        prediction: replay.text,
        ...(task.reference.trim() === '' ? {} : { reference: task.reference }),
        trajectory: {
          turns: [
            { role: 'user', content: replay.request },
            { role: 'assistant', content: replay.text },
          ],
          ...(judged.hard >= 1 ? {} : { failureReason: judged.rationale }),
        },
        details: {
          referenceKind: task.referenceKind,
          judgedBy: judged.method,
          rationale: judged.rationale,
          ...(replay.toolsCalled === undefined ? {} : { toolsCalled: replay.toolsCalled }),
          ...replay.details,
        },
      };
    },
  };
}
