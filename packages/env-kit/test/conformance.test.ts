import { AssertionError } from 'node:assert';
import type { Environment } from '@skillopt/contract';
import {
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
  runConformanceCheck,
  runEnvironmentConformance,
  type ConformanceTestRunner,
} from '../src/conformance';
import { createScriptedChatModel } from '../src/testing';
import { createQaEnvironment } from './qa-environment';

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
          timeoutMs: 1000,
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
