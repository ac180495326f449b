/**
 * `@skillopt/backends-kit/conformance`: the backend conformance suite, the twin of env-kit's. A
 * backend package calls `describeChatModelConformance` (chat models) or
 * `describeAgentRunnerConformance` (agent runners) from one of its own test files, with a factory
 * per situation; the checks use `node:assert`, so they run under Jest, Vitest, Mocha or
 * `node:test` alike.
 */
import { AGENT_RUNNER_CONFORMANCE_CHECKS, type AgentRunnerConformanceOptions, type NamedAgentRunnerCheck } from './conformance/agent-runner-checks.js';
import { CHAT_MODEL_CONFORMANCE_CHECKS, type ChatModelConformanceOptions, type NamedChatModelCheck } from './conformance/chat-model-checks.js';
import { conformanceSecret, createConformanceContext } from './conformance/check-support.js';

export {
  AGENT_RUNNER_CONFORMANCE_CHECKS,
  type AgentRunnerConformanceOptions,
  type AgentRunnerFactory,
  type NamedAgentRunnerCheck,
} from './conformance/agent-runner-checks.js';
export {
  CHAT_MODEL_CONFORMANCE_CHECKS,
  type ChatModelConformanceContext,
  type ChatModelConformanceOptions,
  type ChatModelFactory,
  type NamedChatModelCheck,
} from './conformance/chat-model-checks.js';
export type { ConformanceContext } from './conformance/check-support.js';

/** The two functions of a test runner the suite needs. Jest, Vitest and Mocha globals all fit. */
export interface ConformanceTestRunner {
  describe(name: string, body: () => void): void;
  it(name: string, body: () => Promise<void>, timeoutMs?: number): void;
}

/** The outcome of one check when the suite runs outside a test runner. */
export interface ConformanceCheckOutcome {
  name: string;
  passed: boolean;
  error?: unknown;
}

interface SuiteNaming {
  /** The name of the `describe` block, usually the package's name. */
  name: string;
  /** Each registered test's timeout, passed to `it`; default 60000 ms. */
  testTimeoutMs?: number;
}

export type ChatModelConformanceSuiteOptions = ChatModelConformanceOptions & SuiteNaming;
export type AgentRunnerConformanceSuiteOptions = AgentRunnerConformanceOptions & SuiteNaming;

const DEFAULT_TEST_TIMEOUT_MS = 60_000;

function globalTestRunner(): ConformanceTestRunner {
  const globals = globalThis as unknown as Partial<ConformanceTestRunner>;
  const { describe, it } = globals;
  if (typeof describe !== 'function' || typeof it !== 'function')
    throw new Error(
      'the backend conformance suite found no global describe/it; call it from a Jest or Vitest (globals) test file, or pass {describe, it} as the second argument',
    );
  return { describe: describe.bind(globalThis), it: it.bind(globalThis) };
}

/** Runs one check with a fresh context (a new secret), and its clean-ups afterwards, also when it fails. */
async function runCheck<Options>(check: { run(options: Options, context: never): Promise<void> }, options: Options, extra: object = {}): Promise<void> {
  const { context, finish } = createConformanceContext(conformanceSecret());
  try {
    await check.run(options, { ...context, ...extra } as never);
  } finally {
    await finish();
  }
}

async function runChecks<Check extends { name: string; run(options: Options, context: never): Promise<void> }, Options>(
  checks: readonly Check[],
  options: Options,
  extra: object,
): Promise<ConformanceCheckOutcome[]> {
  const outcomes: ConformanceCheckOutcome[] = [];
  for (const check of checks) {
    try {
      await runCheck(check, options, extra);
      outcomes.push({ name: check.name, passed: true });
    } catch (error) {
      outcomes.push({ name: check.name, passed: false, error });
    }
  }
  return outcomes;
}

function chatChecksFor(options: ChatModelConformanceOptions): NamedChatModelCheck[] {
  return CHAT_MODEL_CONFORMANCE_CHECKS.filter((check) => check.appliesTo(options));
}

function agentChecksFor(options: AgentRunnerConformanceOptions): NamedAgentRunnerCheck[] {
  return AGENT_RUNNER_CONFORMANCE_CHECKS.filter((check) => check.appliesTo(options));
}

/**
 * Registers the chat half of the suite as one `describe` block with one test per check that
 * applies (a check needing a factory the options leave out is listed in the block's name as not
 * applicable). Call it at the top level of a test file.
 */
export function describeChatModelConformance(options: ChatModelConformanceSuiteOptions, runner: ConformanceTestRunner = globalTestRunner()): void {
  const checks = chatChecksFor(options);
  const skipped = CHAT_MODEL_CONFORMANCE_CHECKS.length - checks.length;
  runner.describe(
    `${options.name} conforms to the SkillOpt ChatModel contract${skipped > 0 ? ` (${skipped} check${skipped === 1 ? '' : 's'} not applicable)` : ''}`,
    () => {
      for (const check of checks)
        runner.it(check.name, () => runCheck(check, options, { timeoutMs: options.timeoutMs ?? 300 }), options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS);
    },
  );
}

/** Registers the agent half of the suite, likewise. */
export function describeAgentRunnerConformance(options: AgentRunnerConformanceSuiteOptions, runner: ConformanceTestRunner = globalTestRunner()): void {
  const checks = agentChecksFor(options);
  const skipped = AGENT_RUNNER_CONFORMANCE_CHECKS.length - checks.length;
  runner.describe(
    `${options.name} conforms to the SkillOpt AgentRunner contract${skipped > 0 ? ` (${skipped} check${skipped === 1 ? '' : 's'} not applicable)` : ''}`,
    () => {
      for (const check of checks) runner.it(check.name, () => runCheck(check, options), options.testTimeoutMs ?? DEFAULT_TEST_TIMEOUT_MS);
    },
  );
}

/** Runs every applicable chat check in order without a test runner (for scripts) and reports each outcome. */
export function runChatModelConformance(options: ChatModelConformanceOptions): Promise<ConformanceCheckOutcome[]> {
  return runChecks(chatChecksFor(options), options, { timeoutMs: options.timeoutMs ?? 300 });
}

/** Runs every applicable agent check in order without a test runner and reports each outcome. */
export function runAgentRunnerConformance(options: AgentRunnerConformanceOptions): Promise<ConformanceCheckOutcome[]> {
  return runChecks(agentChecksFor(options), options, {});
}
