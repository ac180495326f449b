import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type ClaudeCodeBackendConfigInput } from '../src/index';
import { FIXTURES, fakeClaude, resultEvent } from './fake-claude';

/** A backend whose `claude` is the fake CLI playing `scenario`, with the context's secret as its API key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeHarnessScenario, config: ClaudeCodeBackendConfigInput = {}) {
  const directory = await mkdtemp(path.join(tmpdir(), 'skillopt-fake-claude-'));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const cli = await fakeClaude(directory, scenario);
  return createBackend({ path: cli.path, ...config }, { environment: { ANTHROPIC_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() });
}

const crash = (): FakeHarnessScenario => ({ stderr: 'claude: fatal error', echoEnvironment: ['ANTHROPIC_API_KEY'], crashSignal: 'SIGKILL' });
const stall: FakeHarnessScenario = { transcript: [{ type: 'system', subtype: 'init' }], exitDelayMs: 120_000 };

describeAgentRunnerConformance({
  name: '@skillopt/backends-claude-code (agent runner, fake CLI)',
  createAnsweringRunner: async (context) =>
    (await backendPlaying(context, { transcriptFile: path.join(FIXTURES, 'stdout-stream-json.jsonl') })).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) =>
    (await backendPlaying(context, { transcript: [resultEvent('The suite placed it.', { usage: undefined, modelUsage: undefined })] })).createAgentRunner({
      role: 'target',
    }),
  createStalledRunner: async (context) => (await backendPlaying(context, stall)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crash())).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, { transcript: [resultEvent('')] })).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-claude-code (chat model, fake CLI)',
  createAnsweringModel: async (context) =>
    (await backendPlaying(context, { transcriptFile: path.join(FIXTURES, 'stdout-print-json.jsonl') })).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) => (await backendPlaying(context, stall, { timeout_ms: context.timeoutMs })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) =>
    (
      await backendPlaying(context, {
        transcript: [resultEvent(`Invalid API key: ${context.secret}`, { is_error: true, api_error_status: 401 })],
        exitCode: 1,
      })
    ).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) =>
    (await backendPlaying(context, { transcript: [resultEvent('Paris.', { usage: undefined, modelUsage: undefined })] })).createChatModel({
      role: 'optimizer',
    }),
  // A process start-up (node, then the fake) takes longer than an HTTP call.
  timeoutMs: 1_500,
  settleGraceMs: 4_000,
});
