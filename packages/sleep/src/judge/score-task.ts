import type { TaskRecord } from '../tasks/task-record.js';
import type { LlmJudge } from './llm-judge.js';
import { DEFAULT_PASS_THRESHOLD } from './llm-judge.js';
import { type FailedCheck, scoreRuleJudge } from './rule-judge.js';
import { exactScore, keywordSoftScore } from './text-scores.js';

export type TaskScore =
  | {
      status: 'scored';
      /** How it was scored. */
      method: 'rule' | 'exact' | 'rubric-keywords' | 'rubric-llm';
      hard: number;
      soft: number;
      rationale: string;
      /** The failed rule checks, as data; empty for other methods. */
      failures: FailedCheck[];
    }
  | {
      /**
       * No score exists: a `none` task has no reference to compare with (the original scored it by
       * its session's outcome, the same number whatever the replay answered), and a rule task with
       * no checks has nothing to check. Such a task must not enter an average.
       */
      status: 'unjudged';
      reason: string;
    }
  | {
      /** The LLM judge gave no usable verdict: the answer is not judged, and is not a 0. */
      status: 'judge-failed';
      reason: string;
    };

export interface ScoreTaskOptions {
  /**
   * The tools the replay really called: `tool_called` checks read only these. Undefined when the
   * target does not say which it called (an agent harness): a task with a tool check is then
   * unjudged, never failed for tools it may well have called.
   */
  toolsCalled: readonly string[] | undefined;
  /** Grades rubric tasks; without it a rubric is scored by its keywords. */
  llmJudge?: LlmJudge;
  signal?: AbortSignal;
}

/** Scores a replayed answer by the task's reference kind (spec §3.4). */
export async function scoreTask(task: TaskRecord, response: string, options: ScoreTaskOptions): Promise<TaskScore> {
  switch (task.referenceKind) {
    case 'rule': {
      if (task.judge === undefined || task.judge.checks.length === 0) return { status: 'unjudged', reason: 'the rule task has no checks' };
      if (options.toolsCalled === undefined && task.judge.checks.some((check) => check.op === 'tool_called'))
        return { status: 'unjudged', reason: 'the task checks a tool call, and this target does not report the tools it called' };
      const judgement = scoreRuleJudge(task.judge, response, options.toolsCalled);
      return { status: 'scored', method: 'rule', ...judgement };
    }
    case 'exact': {
      const hard = exactScore(task.reference, response);
      const soft = Math.max(hard, keywordSoftScore(task.reference, response));
      return {
        status: 'scored',
        method: 'exact',
        hard,
        soft,
        rationale: hard === 1 ? 'exact match' : `no exact match; keyword soft=${soft.toFixed(2)}`,
        failures: [],
      };
    }
    case 'rubric': {
      if (options.llmJudge !== undefined) {
        const verdict = await options.llmJudge.judge({ task, response, ...(options.signal === undefined ? {} : { signal: options.signal }) });
        if (!verdict.ok) return { status: 'judge-failed', reason: verdict.reason };
        return { status: 'scored', method: 'rubric-llm', hard: verdict.hard, soft: verdict.soft, rationale: verdict.rationale, failures: [] };
      }
      const rubric = task.reference.trim() === '' ? task.intent : task.reference;
      const soft = keywordSoftScore(rubric, response);
      return {
        status: 'scored',
        method: 'rubric-keywords',
        hard: soft >= DEFAULT_PASS_THRESHOLD ? 1 : 0,
        soft,
        rationale: `rubric keyword soft=${soft.toFixed(2)}`,
        failures: [],
      };
    }
    case 'none':
      return { status: 'unjudged', reason: 'the task has no reference, rubric or checks to judge an answer by' };
  }
}
