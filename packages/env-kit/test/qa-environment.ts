// A tiny question-answering env used by the conformance tests: items from a split directory, one
// model call (or one agent run) per item, exact match and token F1. Each "flaw" switches on one mistake the
// conformance suite must catch.
import path from 'node:path';
import { z } from 'zod';
import type { Environment, RolloutContext, RolloutResult, SplitName, TaskItem } from '@skillopt/contract';
import { exactMatch, extractTaggedAnswer, loadSplitItems, locateTaggedAnswer, runAgentTask, tokenF1 } from '../src/index';

export const QA_SPLIT_ROOT = path.join(__dirname, 'fixtures', 'qa-split');

const rawQaItemSchema = z
  .object({ key: z.string().min(1), question: z.string().min(1), answers: z.array(z.string()).min(1) })
  .transform((raw) => ({ id: raw.key, taskType: 'qa', question: raw.question, references: raw.answers }));

export interface QaEnvironmentFlaws {
  /** Catches the target's error and scores it as a wrong answer (hard 0). */
  scoreProviderErrors?: boolean;
  /** Catches the target's error and returns an errored result marked not retryable. */
  markProviderErrorsNotRetryable?: boolean;
  /** Neither checks the signal nor passes it to the target. */
  ignoreSignal?: boolean;
  /** Keeps the item being rolled out in a field shared by all rollouts. */
  shareStateBetweenRollouts?: boolean;
  /** Adds a load counter to every item, so two loads differ. */
  nondeterministicLoading?: boolean;
  /** Reports hard 2 for a correct answer. */
  scoreOutOfRange?: boolean;
  /** Gives the second train item the first one's id. */
  duplicateIds?: boolean;
  /** Teardown rejects. */
  failingTeardown?: boolean;
  /** Copies the whole train split into the agent's workspace beside task.md. */
  agentWorkspaceHoldsTheSplit?: boolean;
  /** Writes task.md with a heading the chat prompt does not have. */
  agentTaskDiffersFromChat?: boolean;
  /** Scores an agent's answer only from `<answer>` tags, unlike its chat replies. */
  agentAnswerNeedsTags?: boolean;
}

export interface QaEnvironment extends Environment {
  setupCalls: number;
  teardownCalls: number;
}

/**
 * The time limit of an agent run: a harness here is a real Node process, which can take seconds to
 * start on a loaded machine; a run that hangs is caught by the test's own limit.
 */
export const AGENT_TIME_LIMIT_MS = 120_000;

export function createQaEnvironment(flaws: QaEnvironmentFlaws = {}): QaEnvironment {
  let loads = 0;
  let currentItem: TaskItem | undefined;

  async function loadSplit(split: SplitName): Promise<TaskItem[]> {
    loads += 1;
    const items = await loadSplitItems(QA_SPLIT_ROOT, split, rawQaItemSchema);
    if (flaws.duplicateIds && split === 'train' && items[0] !== undefined && items[1] !== undefined) {
      items[1] = { ...items[1], id: items[0].id };
    }
    return flaws.nondeterministicLoading ? items.map((item) => ({ ...item, loadNumber: loads })) : items;
  }

  // Makes the shared-state flaw show whenever rollouts overlap, without depending on I/O timing:
  // each rollout waits (at most 200 ms) for another one to start after it.
  const startWaiters: Array<() => void> = [];
  async function untilAnotherRolloutStarts(): Promise<void> {
    for (const wake of startWaiters.splice(0)) wake();
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 200);
      startWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  async function reply(item: TaskItem, context: RolloutContext): Promise<string> {
    const question = item.question ?? '';
    if (context.target.kind === 'agent') {
      const run = await runAgentTask(
        context.target.runner,
        {
          text: flaws.agentTaskDiffersFromChat ? `# Task\n\n${question}` : question,
          files: flaws.agentWorkspaceHoldsTheSplit ? [{ path: 'split/train/items.json', content: JSON.stringify(await loadSplit('train')) }] : [],
        },
        flaws.ignoreSignal ? { ...context, signal: new AbortController().signal } : context,
        AGENT_TIME_LIMIT_MS,
      );
      return run.finalText;
    }
    const answer = await context.target.model.generate({
      messages: [
        { role: 'system', content: `Answer inside <answer></answer> tags.\n\n## Skill\n${context.skill}` },
        { role: 'user', content: question },
      ],
      purpose: 'rollout',
      ...(flaws.ignoreSignal ? {} : { signal: context.signal }),
    });
    return answer.text;
  }

  function extractPrediction(text: string, kind: 'chat' | 'agent'): string {
    if (kind === 'agent' && flaws.agentAnswerNeedsTags) {
      const located = locateTaggedAnswer(text);
      return located.source === 'tag' ? located.answer : '';
    }
    return extractTaggedAnswer(text);
  }

  async function rollout(item: TaskItem, context: RolloutContext): Promise<RolloutResult> {
    if (!flaws.ignoreSignal) context.signal.throwIfAborted();
    currentItem = item;
    if (flaws.shareStateBetweenRollouts) await untilAnotherRolloutStarts();
    const question = item.question ?? '';
    let text: string;
    try {
      text = await reply(item, context);
    } catch (error) {
      if (flaws.scoreProviderErrors) {
        return { status: 'scored', id: item.id, taskType: item.taskType, hard: 0, soft: 0, prediction: '' };
      }
      if (flaws.markProviderErrorsNotRetryable) {
        return {
          status: 'errored',
          id: item.id,
          taskType: item.taskType,
          error: { code: 'provider-unavailable', message: (error as Error).message, retryable: false },
        };
      }
      // The right thing: a provider failure is not an answer, so pass it on for core to retry.
      throw error;
    }
    const scoredItem = flaws.shareStateBetweenRollouts ? (currentItem ?? item) : item;
    const references = scoredItem.references ?? [];
    const prediction = extractPrediction(text, context.target.kind);
    const hard = exactMatch(prediction, references);
    return {
      status: 'scored',
      id: item.id,
      taskType: item.taskType,
      hard: flaws.scoreOutOfRange ? hard * 2 : hard,
      soft: tokenF1(prediction, references),
      prediction,
      reference: references.join(' | '),
      trajectory: {
        turns: [
          { role: 'user', content: question },
          { role: 'assistant', content: text },
        ],
      },
    };
  }

  const environment: QaEnvironment = {
    specificationVersion: 'v1',
    id: 'qa-test',
    targetKinds: ['chat', 'agent'],
    taskTypes: ['qa'],
    setupCalls: 0,
    teardownCalls: 0,
    initialSkill: async () => '# QA skill\n\nAnswer with the shortest exact span.\n',
    loadSplit,
    rollout,
    async setup() {
      environment.setupCalls += 1;
    },
    async teardown() {
      environment.teardownCalls += 1;
      if (flaws.failingTeardown) throw new Error('teardown failed on purpose');
    },
  };
  return environment;
}
