/**
 * `@skillopt/env-kit/conformance`: the environment conformance suite. A third-party env package
 * calls `describeEnvironmentConformance` from one of its own test files; the checks use
 * `node:assert`, so they run under Jest, Vitest, Mocha or `node:test` alike.
 */
import { SPLIT_NAMES, type Environment } from '@skillopt/contract';
import { AGENT_TARGET_CONFORMANCE_CHECKS, WORKSPACE_ANSWER_CONFORMANCE_CHECKS } from './agent-conformance-checks.js';
import { type ConformanceCheckOptions, declaredTargetKind } from './conformance-rollouts.js';
import { ENVIRONMENT_CONFORMANCE_CHECKS, type NamedConformanceCheck } from './environment-conformance-checks.js';

export {
  AGENT_TARGET_CONFORMANCE_CHECKS,
  checkAgentThatWroteNothingScoresZero,
  checkAgentWorkspaceHoldsTheTask,
  checkCrashedHarnessIsNotScored,
  checkUntaggedAgentAnswerIsScoredAsChat,
  WORKSPACE_ANSWER_CONFORMANCE_CHECKS,
} from './agent-conformance-checks.js';
export type { ConformanceCheck, ConformanceCheckOptions, ConformanceTargetFactory } from './conformance-rollouts.js';
export {
  checkAbortDuringRolloutIsHonoured,
  checkAbortedSignalIsHonoured,
  checkConcurrentRolloutsMatchSequential,
  checkEnvironmentShape,
  checkProviderErrorsAreNotScores,
  checkRolloutResultsAreValid,
  checkSetupAndTeardown,
  checkSplitLoadingIsDeterministic,
  checkSplitsLoadValidItems,
  ENVIRONMENT_CONFORMANCE_CHECKS,
  type NamedConformanceCheck,
} from './environment-conformance-checks.js';

export interface EnvironmentConformanceOptions extends ConformanceCheckOptions {
  /** The name of the `describe` block, usually the env's package name. */
  name: string;
  /** Builds a fresh environment; called once per check, so checks cannot leak state into each other. */
  createEnvironment: () => Environment | Promise<Environment>;
  /** Each registered test's timeout, passed to `it`; default 30000 ms. */
  testTimeoutMs?: number;
}

/** The two functions of a test runner the suite needs. Jest, Vitest and Mocha globals all fit. */
export interface ConformanceTestRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

const DEFAULT_TEST_TIMEOUT_MS = 30_000;

function globalTestRunner(): ConformanceTestRunner {
  const globals = globalThis as unknown as Partial<ConformanceTestRunner>;
  const { describe, it } = globals;
  if (typeof describe !== 'function' || typeof it !== 'function') {
    throw new Error(
      'describeEnvironmentConformance: no global describe/it found; call it from a Jest or Vitest (globals) test file, or pass {describe, it} as the second argument',
    );
  }
  return { describe: describe.bind(globalThis), it: it.bind(globalThis) };
}

/**
 * Runs one check the way the suite does: a fresh environment, `setup()` before and `teardown()` after
 * (also when the check fails), unless the check drives those hooks itself.
 */
export async function runConformanceCheck(check: NamedConformanceCheck, options: EnvironmentConformanceOptions): Promise<void> {
  const environment = await options.createEnvironment();
  const hooks = environment as unknown as { setup?: unknown; teardown?: unknown };
  const managed = check.managesLifecycle === true;
  if (!managed && typeof hooks.setup === 'function') await environment.setup?.();
  try {
    await check.run(environment, options);
  } finally {
    if (!managed && typeof hooks.teardown === 'function') await environment.teardown?.();
  }
}

/** The outcome of one check when the suite runs outside a test runner. */
export interface ConformanceCheckOutcome {
  name: string;
  passed: boolean;
  error?: unknown;
}

/**
 * The checks the suite runs with these options: every env's, and the agent checks too when the
 * options drive an agent target (`targetKind: 'agent'`, or an agent `target`) — those of an env
 * whose agent answers with files when `agentAnswer` says so.
 */
export function conformanceChecksFor(options: Pick<ConformanceCheckOptions, 'target' | 'targetKind' | 'agentAnswer'>): readonly NamedConformanceCheck[] {
  if (declaredTargetKind(options) !== 'agent') return ENVIRONMENT_CONFORMANCE_CHECKS;
  const agentChecks = options.agentAnswer === 'workspace-files' ? WORKSPACE_ANSWER_CONFORMANCE_CHECKS : AGENT_TARGET_CONFORMANCE_CHECKS;
  return [...ENVIRONMENT_CONFORMANCE_CHECKS, ...agentChecks];
}

/** Runs every check in order without a test runner (for scripts and CLIs) and reports each outcome. */
export async function runEnvironmentConformance(options: EnvironmentConformanceOptions): Promise<ConformanceCheckOutcome[]> {
  const outcomes: ConformanceCheckOutcome[] = [];
  for (const check of conformanceChecksFor(options)) {
    try {
      await runConformanceCheck(check, options);
      outcomes.push({ name: check.name, passed: true });
    } catch (error) {
      outcomes.push({ name: check.name, passed: false, error });
    }
  }
  return outcomes;
}

/**
 * Registers the conformance suite as one `describe` block with one test per check
 * (`conformanceChecksFor(options)`). Call it at the top level of a test file:
 *
 *   describeEnvironmentConformance({ name: 'my-env', createEnvironment: () => createEnvironment({}) });
 *
 * `runner` defaults to the global `describe` and `it` of Jest or Vitest.
 */
export function describeEnvironmentConformance(options: EnvironmentConformanceOptions, runner: ConformanceTestRunner = globalTestRunner()): void {
  const splits = options.splits ?? SPLIT_NAMES;
  const timeoutMs = options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS;
  const kind = declaredTargetKind(options);
  const withTarget = kind === undefined ? '' : `, ${kind} target`;
  runner.describe(`${options.name} conforms to the SkillOpt Environment contract (splits: ${splits.join(', ')}${withTarget})`, () => {
    for (const check of conformanceChecksFor(options)) {
      runner.it(check.name, () => runConformanceCheck(check, options), timeoutMs);
    }
  });
}
