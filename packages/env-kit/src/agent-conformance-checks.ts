import assert from 'node:assert/strict';
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import {
  ERROR_CODES,
  messageText,
  ProviderError,
  type AgentRunner,
  type AgentRunRequest,
  type Environment,
  type RolloutResult,
  type Target,
  type TaskItem,
} from '@skillopt/contract';
import { AGENT_TASK_FILE } from './agent-task-file.js';
import {
  assertTargetFailureIsNotScored,
  assertValidResult,
  type ConformanceCheck,
  type ConformanceCheckOptions,
  describeError,
  describeResult,
  planRollouts,
  rolloutInFreshWorkDirectory,
  settle,
} from './conformance-rollouts.js';
import type { NamedConformanceCheck } from './environment-conformance-checks.js';
import { createScriptedAgentRunner } from './test-double-agent-runner.js';
import { createScriptedChatModel } from './test-double-chat-model.js';

/** One run an agent runner received, with what its workspace held when it was handed over. */
interface RecordedAgentRun {
  request: AgentRunRequest;
  /** Whether the workspace was an existing directory (the caller creates it). */
  workspaceExists: boolean;
  /** Files already in the workspace before the runner wrote the request's `files`, relative, with `/`. */
  filesInWorkspace: string[];
  /** The text of `task.md`, from the request's files or the workspace. */
  taskText: string | undefined;
}

async function filesBelow(directory: string, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for (const entry of await readdir(directory, { withFileTypes: true })) {
    const relative = prefix === '' ? entry.name : `${prefix}/${entry.name}`;
    if (entry.isDirectory()) found.push(...(await filesBelow(path.join(directory, entry.name), relative)));
    else found.push(relative);
  }
  return found;
}

async function recordRun(request: AgentRunRequest): Promise<RecordedAgentRun> {
  const workspaceExists = (await stat(request.workspace).catch(() => undefined))?.isDirectory() === true;
  const filesInWorkspace = workspaceExists ? await filesBelow(request.workspace) : [];
  const given = request.files?.find((file) => file.path === AGENT_TASK_FILE)?.content;
  const onDisk = filesInWorkspace.includes(AGENT_TASK_FILE) ? await readFile(path.join(request.workspace, AGENT_TASK_FILE), 'utf8') : undefined;
  const taskText = typeof given === 'string' ? given : given === undefined ? onDisk : Buffer.from(given).toString('utf8');
  return { request, workspaceExists, filesInWorkspace, taskText };
}

/** `runner`, keeping every request it is given and what the workspace held at that moment. */
function recordingRunner(runner: AgentRunner): { runner: AgentRunner; runs: RecordedAgentRun[] } {
  const runs: RecordedAgentRun[] = [];
  return {
    runs,
    runner: {
      specificationVersion: runner.specificationVersion,
      provider: runner.provider,
      modelId: runner.modelId,
      ...(runner.capabilities === undefined ? {} : { capabilities: runner.capabilities }),
      async run(request) {
        runs.push(await recordRun(request));
        return runner.run(request);
      },
    },
  };
}

function agentRunnerOf(target: Target): AgentRunner {
  assert.ok(target.kind === 'agent', `the agent checks need an agent target; the suite was given a ${target.kind} target`);
  return target.runner;
}

function isInside(directory: string, candidate: string): boolean {
  const relative = path.relative(directory, candidate);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** The user message of the first call a chat rollout of `item` makes: what `task.md` must hold. */
async function chatTaskText(environment: Environment, item: TaskItem, skill: string): Promise<string> {
  const model = createScriptedChatModel({ reply: () => '<answer>unknown</answer>' });
  const outcome = await settle(rolloutInFreshWorkDirectory(environment, { item, target: { kind: 'chat', model }, skill }));
  if (outcome.kind === 'rejected') assert.fail(`item "${item.id}": the chat rollout the task file is compared with rejected: ${describeError(outcome.error)}`);
  const user = model.calls[0]?.messages.find((message) => message.role === 'user');
  assert.ok(user !== undefined, `item "${item.id}": the chat rollout sent no user message to compare task.md with`);
  return messageText(user);
}

/**
 * An agent rollout hands the runner the rollout's own work directory as the workspace, the
 * rollout's skill, a prompt naming `task.md`, and a workspace of `task.md` and the item's own
 * files only (`agentWorkspaceFiles`): no corpus, no split folder. `task.md` holds the item's
 * question and, when the env also drives chat models and scores the agent's final text, exactly
 * the user message its chat prompt sends (the simulator finds the item by it).
 */
export const checkAgentWorkspaceHoldsTheTask: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, { ...options, targetKind: 'agent' });
  const itemFiles = options.agentWorkspaceFiles ?? (() => []);
  for (const item of plan.items) {
    const recording = recordingRunner(agentRunnerOf(plan.target));
    let workDirectory: string | undefined;
    const outcome = await settle(
      rolloutInFreshWorkDirectory(environment, {
        item,
        target: { kind: 'agent', runner: recording.runner },
        skill: plan.skill,
        onWorkDirectory: (directory) => {
          workDirectory = directory;
        },
      }),
    );
    if (outcome.kind === 'rejected') assert.fail(`item "${item.id}": the rollout with a working agent target rejected: ${describeError(outcome.error)}`);
    assertValidResult(outcome.value, item, 'with a working agent target');
    assert.ok(recording.runs.length > 0, `item "${item.id}": the rollout never ran the agent runner`);
    const expected = [...new Set([AGENT_TASK_FILE, ...itemFiles(item)])].sort();
    for (const run of recording.runs) {
      const { request } = run;
      assert.ok(
        workDirectory !== undefined && isInside(workDirectory, request.workspace),
        `item "${item.id}": the agent's workspace ${request.workspace} is not the rollout's own work directory; use context.workDirectory()`,
      );
      assert.ok(
        run.workspaceExists,
        `item "${item.id}": the agent's workspace ${request.workspace} does not exist; the env creates it (context.workDirectory() does)`,
      );
      assert.equal(request.skill, plan.skill, `item "${item.id}": the agent runner was not given the rollout's skill`);
      assert.ok(
        request.prompt.includes(`\`${AGENT_TASK_FILE}\``),
        `item "${item.id}": the agent's prompt does not name \`${AGENT_TASK_FILE}\`: ${JSON.stringify(request.prompt)}`,
      );
      const present = [...new Set([...(request.files ?? []).map((file) => file.path), ...run.filesInWorkspace])].sort();
      assert.deepEqual(
        present,
        expected,
        `item "${item.id}": the agent's workspace holds ${JSON.stringify(present)}; it must hold ${AGENT_TASK_FILE} and the item's own files only, ${JSON.stringify(expected)}`,
      );
      assert.ok(run.taskText !== undefined, `item "${item.id}": ${AGENT_TASK_FILE} has no text`);
      const question = item.question?.trim() ?? '';
      if (question !== '') assert.ok(run.taskText.includes(question), `item "${item.id}": ${AGENT_TASK_FILE} does not hold the item's question`);
      if (environment.targetKinds.includes('chat') && options.agentAnswer !== 'workspace-files') {
        assert.equal(
          run.taskText,
          await chatTaskText(environment, item, plan.skill),
          `item "${item.id}": ${AGENT_TASK_FILE} must hold the task exactly as the chat prompt's user message presents it`,
        );
      }
    }
  }
};

/**
 * A harness that crashed (a retryable `process-crashed` ProviderError from the runner) is an
 * infrastructure failure: the rollout rejects with it or returns a retryable `errored` result,
 * never a score.
 */
export const checkCrashedHarnessIsNotScored: ConformanceCheck = async (environment, options = {}) => {
  const plan = await planRollouts(environment, { ...options, targetKind: 'agent' });
  await assertTargetFailureIsNotScored(environment, {
    item: plan.items[0] as TaskItem,
    skill: plan.skill,
    kind: 'agent',
    error: new ProviderError({
      provider: 'test-double',
      code: ERROR_CODES.processCrashed,
      message: 'the test-double harness exited with code 1 (simulated crash)',
      retryable: true,
    }),
    failure: "a crashed harness's retryable ProviderError",
  });
};

function scoredOutcome(result: RolloutResult): string {
  return result.status === 'scored' ? JSON.stringify({ hard: result.hard, soft: result.soft, prediction: result.prediction }) : describeResult(result);
}

async function scoredRollout(environment: Environment, item: TaskItem, target: Target, skill: string, situation: string): Promise<RolloutResult> {
  const outcome = await settle(rolloutInFreshWorkDirectory(environment, { item, target, skill }));
  if (outcome.kind === 'rejected') assert.fail(`item "${item.id}" ${situation}: the rollout rejected: ${describeError(outcome.error)}`);
  const result = assertValidResult(outcome.value, item, situation);
  assert.ok(
    result.status === 'scored',
    `item "${item.id}" ${situation}: the rollout returned ${describeResult(result)}; an answer without tags is still an answer`,
  );
  return result;
}

/**
 * An agent's final text without `<answer>` tags is scored as the env scores the same chat reply
 * (the same extraction, the same prediction and scores); an env without chat scores it all the same.
 */
export const checkUntaggedAgentAnswerIsScoredAsChat: ConformanceCheck = async (environment, options: ConformanceCheckOptions = {}) => {
  const plan = await planRollouts(environment, { ...options, targetKind: 'agent' });
  for (const item of plan.items) {
    const text = `I read the task and worked it out.\n${item.references?.[0] ?? 'no answer'}`;
    const runner = createScriptedAgentRunner({ reply: () => text });
    const agent = await scoredRollout(environment, item, { kind: 'agent', runner }, plan.skill, 'with an untagged agent answer');
    if (!environment.targetKinds.includes('chat')) continue;
    const model = createScriptedChatModel({ reply: () => text });
    const chat = await scoredRollout(environment, item, { kind: 'chat', model }, plan.skill, 'with the same untagged chat reply');
    assert.equal(
      scoredOutcome(agent),
      scoredOutcome(chat),
      `item "${item.id}": the untagged agent answer scored ${scoredOutcome(agent)}, the same chat reply ${scoredOutcome(chat)}`,
    );
  }
};

/**
 * For an env whose agent answers with files (`agentAnswer: 'workspace-files'`): an agent that
 * finished but wrote nothing failed its task. That is a score of 0, a task outcome, never an
 * error to retry, however well its final text reads.
 */
export const checkAgentThatWroteNothingScoresZero: ConformanceCheck = async (environment, options: ConformanceCheckOptions = {}) => {
  const plan = await planRollouts(environment, { ...options, targetKind: 'agent' });
  for (const item of plan.items) {
    const runner = createScriptedAgentRunner({ reply: () => `I have finished the task.\n${item.references?.[0] ?? ''}` });
    const result = await scoredRollout(environment, item, { kind: 'agent', runner }, plan.skill, 'with an agent that wrote no file');
    assert.ok(
      result.status === 'scored' && result.hard === 0 && result.soft === 0,
      `item "${item.id}": an agent that wrote no file scored ${scoredOutcome(result)}; it must score 0`,
    );
  }
};

/** The checks an env with agent targets passes besides the others, in the order the suite registers them. */
export const AGENT_TARGET_CONFORMANCE_CHECKS: readonly NamedConformanceCheck[] = [
  { name: "puts task.md and only the item's own files in the agent's workspace", run: checkAgentWorkspaceHoldsTheTask },
  { name: 'never scores a crashed harness', run: checkCrashedHarnessIsNotScored },
  { name: 'scores an agent answer without tags as it scores chat', run: checkUntaggedAgentAnswerIsScoredAsChat },
];

/** The agent checks of an env whose agent answers with the files it writes: its final text is not what is scored. */
export const WORKSPACE_ANSWER_CONFORMANCE_CHECKS: readonly NamedConformanceCheck[] = [
  { name: "puts task.md and only the item's own files in the agent's workspace", run: checkAgentWorkspaceHoldsTheTask },
  { name: 'never scores a crashed harness', run: checkCrashedHarnessIsNotScored },
  { name: 'scores an agent that wrote nothing 0', run: checkAgentThatWroteNothingScoresZero },
];
