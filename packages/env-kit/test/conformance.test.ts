import { AssertionError } from 'node:assert';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  createReferenceHarnessRunner,
  referenceHarnessAgentTarget,
  referenceHarnessTranscript,
  type FakeHarnessInvocation,
} from '@skillopt/backends-kit/testing';
import type { Environment, Target } from '@skillopt/contract';
import {
  AGENT_TARGET_CONFORMANCE_CHECKS,
  checkAgentThatWroteNothingScoresZero,
  checkAgentWorkspaceHoldsTheTask,
  checkCrashedHarnessIsNotScored,
  checkUntaggedAgentAnswerIsScoredAsChat,
  checkAbortDuringRolloutIsHonoured,
  checkAbortedSignalIsHonoured,
  checkConcurrentRolloutsMatchSequential,
  checkEnvironmentShape,
  checkProviderErrorsAreNotScores,
  checkRolloutResultsAreValid,
  checkSetupAndTeardown,
  checkSplitLoadingIsDeterministic,
  checkSplitsLoadValidItems,
  describeEnvironmentConformance,
  ENVIRONMENT_CONFORMANCE_CHECKS,
  conformanceChecksFor,
  runConformanceCheck,
  runEnvironmentConformance,
  WORKSPACE_ANSWER_CONFORMANCE_CHECKS,
  type ConformanceTestRunner,
} from '../src/conformance';
import { createScriptedChatModel, createTaskFileAnswerer } from '../src/testing';
import { AGENT_TIME_LIMIT_MS, createQaEnvironment } from './qa-environment';

const harnessDirectory = mkdtempSync(path.join(tmpdir(), 'env-kit-reference-harness-'));
afterAll(() => rmSync(harnessDirectory, { recursive: true, force: true }));

// The suite registered exactly as a third-party env package would, with the default target double.
describeEnvironmentConformance({ name: 'qa-test env', createEnvironment: () => createQaEnvironment() });

// And with a target the caller provides.
describeEnvironmentConformance({
  name: 'qa-test env with a caller-provided target',
  createEnvironment: () => createQaEnvironment(),
  target: { kind: 'chat', model: createScriptedChatModel({ reply: () => '<answer>Paris</answer>' }) },
  splits: ['train'],
  sampleSize: 2,
});

// And with an agent target: the reference harness runner, then the default agent double.
describeEnvironmentConformance({
  name: 'qa-test env with the reference harness',
  createEnvironment: () => createQaEnvironment(),
  targetKind: 'agent',
  target: (items) => referenceHarnessAgentTarget(harnessDirectory, createTaskFileAnswerer(items)),
});

describeEnvironmentConformance({ name: 'qa-test env with the agent double', createEnvironment: () => createQaEnvironment(), targetKind: 'agent' });

// And with the runner passed explicitly, as a Vitest user without globals would.
describeEnvironmentConformance(
  { name: 'qa-test env on an explicit runner', createEnvironment: () => createQaEnvironment(), splits: ['val'], sampleSize: 1 },
  { describe, it },
);

async function expectCheckToFail(check: Promise<void>, message: RegExp): Promise<void> {
  const error = await check.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(AssertionError);
  expect((error as Error).message).toMatch(message);
}

describe('the conformance suite catches broken envs', () => {
  it('an env that scores a thrown provider error as hard 0', async () => {
    const environment = createQaEnvironment({ scoreProviderErrors: true });
    await expectCheckToFail(
      checkProviderErrorsAreNotScores(environment),
      /item "qa-001": the rollout returned a scored result \(hard 0, soft 0\) after the target threw a retryable ProviderError \(provider-unavailable\); a provider failure must be rethrown or returned as status 'errored', never scored/,
    );
  });

  it('an env that reports a retryable provider error as not retryable', async () => {
    const environment = createQaEnvironment({ markProviderErrorsNotRetryable: true });
    await expectCheckToFail(checkProviderErrorsAreNotScores(environment), /marked retryable: false/);
  });

  it('an env that ignores an already-aborted signal', async () => {
    const environment = createQaEnvironment({ ignoreSignal: true });
    await expectCheckToFail(checkAbortedSignalIsHonoured(environment), /with an already-aborted signal the rollout returned status 'scored'/);
  });

  it('an env that does not pass its signal on to the target', async () => {
    const environment = createQaEnvironment({ ignoreSignal: true });
    await expectCheckToFail(
      checkAbortDuringRolloutIsHonoured(environment, { abortGraceMs: 50 }),
      /had not settled 50 ms after its signal aborted mid-call; pass context.signal to the target/,
    );
  });

  it('an env whose rollouts share state', async () => {
    const environment = createQaEnvironment({ shareStateBetweenRollouts: true });
    await expectCheckToFail(checkConcurrentRolloutsMatchSequential(environment), /run concurrently with other items it gave \{"hard":0,.*run alone \{"hard":1/);
  });

  it('an env that loads different items each time', async () => {
    const environment = createQaEnvironment({ nondeterministicLoading: true });
    await expectCheckToFail(checkSplitLoadingIsDeterministic(environment), /loadSplit\('train'\) gave different items/);
  });

  it('an env with duplicate ids', async () => {
    const environment = createQaEnvironment({ duplicateIds: true });
    await expectCheckToFail(checkSplitsLoadValidItems(environment), /has the id "qa-001" more than once/);
  });

  it('an env whose score is out of range', async () => {
    const environment = createQaEnvironment({ scoreOutOfRange: true });
    await expectCheckToFail(checkRolloutResultsAreValid(environment), /not a valid RolloutResult: hard: Too big/);
  });

  it('an env whose teardown rejects', async () => {
    const environment = createQaEnvironment({ failingTeardown: true });
    await expectCheckToFail(checkSetupAndTeardown(environment), /teardown\(\) rejected: Error: teardown failed on purpose/);
  });

  it('a value that is not an environment', async () => {
    const notAnEnvironment = { specificationVersion: 'v0', id: 'x', targetKinds: ['chat'], taskTypes: [] };
    await expectCheckToFail(
      checkEnvironmentShape(notAnEnvironment as unknown as Environment),
      /not an Environment: specificationVersion "v0" is not supported.*initialSkill is not a function/,
    );
  });

  it('an env that declares no task types or an unknown target kind', async () => {
    const environment = { ...createQaEnvironment(), taskTypes: [] };
    await expectCheckToFail(checkEnvironmentShape(environment), /taskTypes must name at least one task type/);
    const agentOnly = { ...createQaEnvironment(), targetKinds: ['robot'] } as unknown as Environment;
    await expectCheckToFail(checkEnvironmentShape(agentOnly), /"robot" is not one of chat, agent/);
  });

  it('an env whose items carry a task type it does not declare', async () => {
    const environment = { ...createQaEnvironment(), taskTypes: ['math'] };
    await expectCheckToFail(checkSplitsLoadValidItems(environment), /taskType "qa", which is not in the env's taskTypes \(math\)/);
  });

  it('an env with no items at all', async () => {
    const environment: Environment = { ...createQaEnvironment(), loadSplit: async () => [] };
    await expectCheckToFail(checkRolloutResultsAreValid(environment), /hold no items, so no rollout can be checked/);
  });

  it('an agent rollout that copies the split into the workspace', async () => {
    const environment = createQaEnvironment({ agentWorkspaceHoldsTheSplit: true });
    await expectCheckToFail(
      checkAgentWorkspaceHoldsTheTask(environment, { targetKind: 'agent' }),
      /item "qa-001": the agent's workspace holds \["split\/train\/items.json","task.md"\]; it must hold task.md and the item's own files only, \["task.md"\]/,
    );
  });

  it("an agent rollout whose task.md is not the chat prompt's task", async () => {
    const environment = createQaEnvironment({ agentTaskDiffersFromChat: true });
    await expectCheckToFail(
      checkAgentWorkspaceHoldsTheTask(environment, { targetKind: 'agent' }),
      /task.md must hold the task exactly as the chat prompt's user message presents it/,
    );
  });

  it('an agent rollout that scores a crashed harness', async () => {
    const environment = createQaEnvironment({ scoreProviderErrors: true });
    await expectCheckToFail(
      checkCrashedHarnessIsNotScored(environment),
      /the rollout returned a scored result \(hard 0, soft 0\) after the target threw a crashed harness's retryable ProviderError \(process-crashed\)/,
    );
  });

  it('an agent rollout that reads only tagged answers', async () => {
    const environment = createQaEnvironment({ agentAnswerNeedsTags: true });
    await expectCheckToFail(
      checkUntaggedAgentAnswerIsScoredAsChat(environment),
      /item "qa-001": the untagged agent answer scored \{"hard":0,"soft":0,"prediction":""\}, the same chat reply \{"hard":1,"soft":1,"prediction":"Paris"\}/,
    );
  });

  it('an env whose agent answers with files, yet scores the final text', async () => {
    // The QA env scores the reference in the final text: for an env whose answer is the files the
    // agent writes, that would score an agent that wrote nothing.
    await expectCheckToFail(
      checkAgentThatWroteNothingScoresZero(createQaEnvironment(), { agentAnswer: 'workspace-files' }),
      /item "qa-001": an agent that wrote no file scored \{"hard":1,"soft":1,"prediction":"Paris"\}; it must score 0/,
    );
  });

  it('runs the file-answer agent checks instead of the final-text ones when the options say so', () => {
    const names = (checks: ReadonlyArray<{ name: string }>) => checks.map((check) => check.name);
    expect(names(conformanceChecksFor({ targetKind: 'agent', agentAnswer: 'workspace-files' }))).toEqual(
      names([...ENVIRONMENT_CONFORMANCE_CHECKS, ...WORKSPACE_ANSWER_CONFORMANCE_CHECKS]),
    );
    expect(names(conformanceChecksFor({ targetKind: 'agent' }))).toEqual(names([...ENVIRONMENT_CONFORMANCE_CHECKS, ...AGENT_TARGET_CONFORMANCE_CHECKS]));
    expect(names(WORKSPACE_ANSWER_CONFORMANCE_CHECKS)).toContain('scores an agent that wrote nothing 0');
  });

  it('an env asked to drive a kind of target it does not support', async () => {
    const chatOnly: Environment = { ...createQaEnvironment(), targetKinds: ['chat'] };
    await expectCheckToFail(
      checkEnvironmentShape(chatOnly, { targetKind: 'agent' }),
      /asked to drive a target of kind "agent", which the env does not support \(chat\)/,
    );
  });

  it('reports every failing check when run outside a test runner', async () => {
    const outcomes = await runEnvironmentConformance({
      name: 'broken',
      createEnvironment: () => createQaEnvironment({ scoreProviderErrors: true }),
    });
    expect(outcomes).toHaveLength(ENVIRONMENT_CONFORMANCE_CHECKS.length);
    // Catching every target error also turns the abort of a pending call into a score.
    expect(outcomes.filter((outcome) => !outcome.passed).map((outcome) => outcome.name)).toEqual([
      'never scores a provider error',
      'stops promptly when aborted during the target call',
    ]);
  });
});

describe('the conformance suite on a conforming env', () => {
  it('passes every check when run outside a test runner', async () => {
    const outcomes = await runEnvironmentConformance({ name: 'qa', createEnvironment: () => createQaEnvironment() });
    expect(outcomes.every((outcome) => outcome.passed)).toBe(true);
  });

  it('calls setup before and teardown after each check on a fresh env', async () => {
    const environments: ReturnType<typeof createQaEnvironment>[] = [];
    const options = {
      name: 'qa',
      createEnvironment: () => {
        const environment = createQaEnvironment();
        environments.push(environment);
        return environment;
      },
    };
    for (const check of ENVIRONMENT_CONFORMANCE_CHECKS) await runConformanceCheck(check, options);
    expect(environments).toHaveLength(ENVIRONMENT_CONFORMANCE_CHECKS.length);
    // Each check ran on its own env, set up and torn down once (the lifecycle check twice itself).
    for (const environment of environments) expect(environment.setupCalls).toBe(environment.teardownCalls);
    expect(environments.every((environment) => environment.setupCalls >= 1)).toBe(true);
  });

  it('tears down even when a check fails', async () => {
    const environment = createQaEnvironment({ scoreProviderErrors: true });
    const check = ENVIRONMENT_CONFORMANCE_CHECKS.find((candidate) => candidate.name === 'never scores a provider error');
    if (check === undefined) throw new Error('check not found');
    await expect(runConformanceCheck(check, { name: 'qa', createEnvironment: () => environment })).rejects.toThrow(AssertionError);
    expect(environment.teardownCalls).toBe(1);
  });

  it('accepts an env that returns an errored result for a provider error', async () => {
    const base = createQaEnvironment();
    const environment: Environment = {
      ...base,
      rollout: async (item, context) => {
        try {
          return await base.rollout(item, context);
        } catch (error) {
          if (context.signal.aborted) throw error;
          return {
            status: 'errored',
            id: item.id,
            taskType: item.taskType,
            error: { code: 'provider-unavailable', message: (error as Error).message, retryable: true },
          };
        }
      },
    };
    await expect(checkProviderErrorsAreNotScores(environment)).resolves.toBeUndefined();
  });

  it('supports agent-only envs with agent test doubles', async () => {
    const environment: Environment = {
      specificationVersion: 'v1',
      id: 'agent-only',
      targetKinds: ['agent'],
      taskTypes: ['qa'],
      initialSkill: async () => '',
      loadSplit: async (split) => (split === 'train' ? [{ id: 'a-1', taskType: 'qa', question: 'Say yes.', references: ['yes'] }] : []),
      rollout: async (item, context) => {
        if (context.target.kind !== 'agent') throw new Error('agent only');
        const run = await context.target.runner.run({
          skill: context.skill,
          prompt: item.question ?? '',
          workspace: await context.workDirectory(),
          purpose: 'rollout',
          timeoutMs: AGENT_TIME_LIMIT_MS,
          signal: context.signal,
        });
        const prediction = run.finalText.replace(/<\/?answer>/g, '');
        const hard = prediction === item.references?.[0] ? 1 : 0;
        return { status: 'scored', id: item.id, taskType: item.taskType, hard, soft: hard, prediction };
      },
    };
    const outcomes = await runEnvironmentConformance({ name: 'agent-only', createEnvironment: () => environment });
    expect(outcomes.filter((outcome) => !outcome.passed)).toEqual([]);
  });

  it('runs the reference harness in a workspace of task.md beside the skill it installs, and nothing else', async () => {
    const invocations: FakeHarnessInvocation[] = [];
    const environment = createQaEnvironment();
    const items = await environment.loadSplit('train');
    const answer = createTaskFileAnswerer(items);
    let runs = 0;
    const target: Target = {
      kind: 'agent',
      runner: createReferenceHarnessRunner({
        directory: harnessDirectory,
        scenario: (request) => ({
          transcript: referenceHarnessTranscript(answer(request.workspace)),
          recordInvocationTo: path.join(harnessDirectory, `invocation-${(runs += 1)}.json`),
        }),
      }),
    };
    const outcomes = await runEnvironmentConformance({ name: 'qa', createEnvironment: () => environment, target, splits: ['train'], sampleSize: 2 });
    expect(outcomes.filter((outcome) => !outcome.passed)).toEqual([]);
    for (let run = 1; run <= runs; run += 1) invocations.push(JSON.parse(readFileSync(path.join(harnessDirectory, `invocation-${run}.json`), 'utf8')));
    expect(invocations.length).toBeGreaterThan(0);
    for (const invocation of invocations) expect(invocation.files).toEqual(['AGENTS.md', 'task.md']);
  });

  it('adds the agent checks when the options drive an agent target', () => {
    const names: string[] = [];
    const runner: ConformanceTestRunner = { describe: (_name, body) => body(), it: (name) => void names.push(name) };
    describeEnvironmentConformance({ name: 'qa', createEnvironment: () => createQaEnvironment(), targetKind: 'agent' }, runner);
    expect(names).toEqual([...ENVIRONMENT_CONFORMANCE_CHECKS, ...AGENT_TARGET_CONFORMANCE_CHECKS].map((check) => check.name));
  });

  it('registers one describe block with one test per check on the runner it is given', () => {
    const registered: { describes: string[]; tests: Array<{ name: string; timeoutMs?: number }> } = { describes: [], tests: [] };
    const runner: ConformanceTestRunner = {
      describe: (name, body) => {
        registered.describes.push(name);
        body();
      },
      it: (name, _body, timeoutMs) => {
        registered.tests.push({ name, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
      },
    };
    describeEnvironmentConformance({ name: 'qa', createEnvironment: () => createQaEnvironment(), testTimeoutMs: 1234 }, runner);
    expect(registered.describes).toEqual(['qa conforms to the SkillOpt Environment contract (splits: train, val, test)']);
    expect(registered.tests.map((test) => test.name)).toEqual(ENVIRONMENT_CONFORMANCE_CHECKS.map((check) => check.name));
    expect(registered.tests.every((test) => test.timeoutMs === 1234)).toBe(true);
  });
});
