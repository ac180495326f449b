import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentRunResultSchema, SkillOptError, type AgentRunner, type AgentRunRequest } from '@skillopt/contract';
import {
  assertDeclarations,
  assertNoSecret,
  assertProbeWarning,
  assertRetryableProviderError,
  assertUsage,
  describeError,
  PROBE_FIELD,
  rejectionWithin,
  validResultOf,
  type ConformanceContext,
} from './check-support.js';

/** An agent runner for one check, built for the situation the check needs. */
export type AgentRunnerFactory = (context: ConformanceContext) => AgentRunner | Promise<AgentRunner>;

/** How to build the runner of each situation; each harness gets `context.secret` as its credential. */
export interface AgentRunnerConformanceOptions {
  /** A runner whose harness finishes with a final answer. */
  createAnsweringRunner: AgentRunnerFactory;
  /** A runner whose harness answers without reporting token counts. Leave it out when that cannot happen. */
  createRunnerWithoutReportedUsage?: AgentRunnerFactory;
  /** A runner whose harness never finishes until it is killed. */
  createStalledRunner: AgentRunnerFactory;
  /** A runner whose harness crashes (a signal or a failing exit code), printing its credential to stderr on the way. */
  createCrashingRunner: AgentRunnerFactory;
  /** A runner whose harness exits normally without any answer. */
  createSilentRunner: AgentRunnerFactory;
  /** The time limit given to the stalled harness; default 1000 ms. */
  timeoutMs?: number;
  /** How long a run may take to settle beyond its moment (an abort, its time limit); default 10000 ms, a harness's own SIGTERM grace included. */
  settleGraceMs?: number;
}

export interface NamedAgentRunnerCheck {
  name: string;
  appliesTo(options: AgentRunnerConformanceOptions): boolean;
  run(options: AgentRunnerConformanceOptions, context: ConformanceContext): Promise<void>;
}

const DEFAULT_TIMEOUT_MS = 1_000;
const DEFAULT_SETTLE_GRACE_MS = 10_000;
const ABORT_GRACE_MS = 3_000;
const INPUT_FILE = 'conformance/input.txt';
const INPUT_TEXT = 'The conformance suite placed this file before the run.';

/** A fresh workspace, created (and later removed) by the caller, as the contract says. */
async function workspaceFor(context: ConformanceContext): Promise<string> {
  const workspace = await realpath(await mkdtemp(path.join(tmpdir(), 'skillopt-runner-conformance-')));
  context.cleanUp(() => rm(workspace, { recursive: true, force: true }));
  return workspace;
}

async function runRequest(context: ConformanceContext, overrides: Partial<AgentRunRequest> = {}): Promise<AgentRunRequest> {
  return {
    skill: '# Conformance skill\n- Give the final answer in one line.',
    prompt: 'Read conformance/input.txt and say what placed it.',
    workspace: await workspaceFor(context),
    files: [{ path: INPUT_FILE, content: INPUT_TEXT }],
    timeoutMs: 60_000,
    purpose: 'probe',
    ...overrides,
  };
}

function answeredRun(runner: AgentRunner, request: AgentRunRequest, context: ConformanceContext, situation: string) {
  return validResultOf(() => runner.run(request), agentRunResultSchema, 'AgentRunResult', context, situation);
}

export const AGENT_RUNNER_CONFORMANCE_CHECKS: readonly NamedAgentRunnerCheck[] = [
  {
    name: 'declares its specification version, provider, model and capabilities',
    appliesTo: () => true,
    async run(options, context) {
      assertDeclarations(await options.createAnsweringRunner(context), 'agent-runner');
    },
  },
  {
    name: "runs in the caller's workspace and answers with a valid result: exit status and usage filled, files left in place",
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createAnsweringRunner(context);
      const request = await runRequest(context);
      const result = await answeredRun(runner, request, context, 'a run that finishes');
      assert.ok(result.finalText.trim() !== '', 'a run that finishes: finalText is empty (a run without an answer must be an error)');
      assert.equal(result.exitStatus.timedOut, false, 'a run that finishes: exitStatus.timedOut must be false');
      assert.ok(result.exitStatus.code !== null || result.exitStatus.signal !== null, 'a run that finishes: exitStatus must give its exit code (or signal)');
      assert.ok(result.transcript.length > 0, "a run that finishes: the transcript must keep the harness's events");
      assertUsage(result.usage, runner.capabilities?.reportedUsage, 'a run that finishes');
      assert.ok(existsSync(request.workspace), 'a run that finishes: the workspace belongs to the caller; the runner must not remove it');
      assert.equal(
        await readFile(path.join(request.workspace, INPUT_FILE), 'utf8'),
        INPUT_TEXT,
        "a run that finishes: the request's files must be in the workspace, and stay there",
      );
    },
  },
  {
    name: 'marks usage as estimated when the harness reports no token counts',
    appliesTo: (options) => options.createRunnerWithoutReportedUsage !== undefined,
    async run(options, context) {
      const runner = await (options.createRunnerWithoutReportedUsage as AgentRunnerFactory)(context);
      const result = await answeredRun(runner, await runRequest(context), context, 'a run without token counts');
      assertUsage(result.usage, false, 'a run without token counts');
    },
  },
  {
    name: 'answers a request with a field it does not know, and reports that field as a warning',
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createAnsweringRunner(context);
      const request = { ...(await runRequest(context)), [PROBE_FIELD]: true } as AgentRunRequest;
      assertProbeWarning((await answeredRun(runner, request, context, 'a request with an unknown field')).warnings, 'a request with an unknown field');
    },
  },
  {
    name: 'refuses an invalid request with a non-retryable SkillOptError instead of running it',
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createAnsweringRunner(context);
      const error = await rejectionWithin(runner.run(await runRequest(context, { timeoutMs: -1 })), 10_000, 'a request with a negative time limit');
      assert.ok(SkillOptError.isInstance(error), `a request with a negative time limit: expected a SkillOptError, got ${describeError(error)}`);
      assert.equal(error.retryable, false, 'a request with a negative time limit: the same request cannot succeed later');
    },
  },
  {
    name: "honours an abort promptly, rejecting with the signal's reason",
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createStalledRunner(context);
      const reason = new Error('the conformance suite aborted this run');
      const early = await rejectionWithin(runner.run(await runRequest(context, { signal: AbortSignal.abort(reason) })), ABORT_GRACE_MS, 'an aborted signal');
      assert.equal(early, reason, 'a run with an already aborted signal must reject with its reason');
      const controller = new AbortController();
      const pending = runner.run(await runRequest(context, { signal: controller.signal }));
      setTimeout(() => controller.abort(reason), 300);
      const error = await rejectionWithin(pending, 300 + ABORT_GRACE_MS, 'a run aborted while its harness works');
      assert.equal(error, reason, `a run aborted while its harness works must reject with the signal's reason, got ${describeError(error)}`);
    },
  },
  {
    name: 'turns a harness that never finishes into a retryable timeout error at its time limit',
    appliesTo: () => true,
    async run(options, context) {
      const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
      const runner = await options.createStalledRunner(context);
      const error = await rejectionWithin(
        runner.run(await runRequest(context, { timeoutMs })),
        timeoutMs + (options.settleGraceMs ?? DEFAULT_SETTLE_GRACE_MS),
        `a harness that never finishes (limit ${timeoutMs} ms)`,
      );
      assertRetryableProviderError(error, 'a harness that never finishes', ['process-timeout', 'provider-timeout']);
      assertNoSecret(error, context.secret, 'a harness that never finishes');
    },
  },
  {
    name: 'turns a crash into a retryable error that keeps the credential the harness printed out of it',
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createCrashingRunner(context);
      const error = await rejectionWithin(runner.run(await runRequest(context)), 30_000, 'a harness that crashes');
      // The secret first, so that no later assertion message repeats it.
      assertNoSecret(error, context.secret, 'a harness that crashes');
      assertRetryableProviderError(error, 'a harness that crashes');
    },
  },
  {
    name: 'never returns an empty answer: a run without one is a retryable error',
    appliesTo: () => true,
    async run(options, context) {
      const runner = await options.createSilentRunner(context);
      const error = await rejectionWithin(runner.run(await runRequest(context)), 30_000, 'a harness that ends without an answer');
      assertRetryableProviderError(error, 'a harness that ends without an answer');
      assertNoSecret(error, context.secret, 'a harness that ends without an answer');
    },
  },
];
