import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type CursorBackendConfigInput } from '../src/index';
import { cursorTranscript, fakeCursor } from './fake-cursor';

/** The backend driving a fake `cursor-agent` that plays `scenario`, with the check's secret as its key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeHarnessScenario, config: CursorBackendConfigInput = {}) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'cursor-conformance-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const fake = await fakeCursor(directory, scenario);
  return createBackend({ path: fake.command, ...config }, { environment: { CURSOR_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() });
}

const USAGE = { inputTokens: 40, outputTokens: 7, cacheReadTokens: 10 };
const answering: FakeHarnessScenario = { transcript: cursorTranscript('The conformance suite placed it.', USAGE) };
const withoutUsage: FakeHarnessScenario = { transcript: cursorTranscript('Paris.') };
const stalled: FakeHarnessScenario = { transcript: cursorTranscript('').slice(0, 2), exitDelayMs: 120_000 };
const crashing: FakeHarnessScenario = { transcript: cursorTranscript('').slice(0, 2), echoEnvironment: ['CURSOR_API_KEY'], crashSignal: 'SIGKILL' };
const silent: FakeHarnessScenario = { transcript: cursorTranscript('').slice(0, 5) };

describeAgentRunnerConformance({
  name: '@skillopt/backends-cursor (agent runner, fake cursor-agent)',
  createAnsweringRunner: async (context) => (await backendPlaying(context, answering)).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createAgentRunner({ role: 'target' }),
  createStalledRunner: async (context) => (await backendPlaying(context, stalled)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crashing)).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, silent)).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-cursor (chat model, fake cursor-agent)',
  createAnsweringModel: async (context) => (await backendPlaying(context, answering)).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) =>
    (await backendPlaying(context, stalled, { timeout_ms: context.timeoutMs, max_retries: 0 })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) =>
    (await backendPlaying(context, { stderr: `Error: Invalid API key ${context.secret}\n`, exitCode: 1 })).createChatModel({ role: 'optimizer' }),
});
