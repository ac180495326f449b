import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type CodexBackendConfigInput } from '../src/index';
import { codexTranscript, fakeCodex } from './fake-codex';

/** The backend driving a fake `codex` that plays `scenario`, with the check's secret as its key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeHarnessScenario, config: CodexBackendConfigInput = {}) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'codex-conformance-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const fake = await fakeCodex(directory, scenario);
  return createBackend({ path: fake.command, ...config }, { environment: { CODEX_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() });
}

const answering: FakeHarnessScenario = { transcript: codexTranscript('The conformance suite placed it.') };
const withoutUsage: FakeHarnessScenario = { transcript: codexTranscript('Paris.').slice(0, 4) };
const stalled: FakeHarnessScenario = { transcript: codexTranscript('').slice(0, 2), exitDelayMs: 120_000 };
const crashing: FakeHarnessScenario = { transcript: codexTranscript('').slice(0, 2), echoEnvironment: ['SKILLOPT_CODEX_API_KEY'], crashSignal: 'SIGKILL' };
const silent: FakeHarnessScenario = { transcript: codexTranscript('').slice(0, 2) };

describeAgentRunnerConformance({
  name: '@skillopt/backends-codex (agent runner, fake codex)',
  createAnsweringRunner: async (context) => (await backendPlaying(context, answering)).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createAgentRunner({ role: 'target' }),
  createStalledRunner: async (context) => (await backendPlaying(context, stalled)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crashing)).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, silent)).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-codex (chat model, fake codex)',
  createAnsweringModel: async (context) => (await backendPlaying(context, answering)).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) =>
    (await backendPlaying(context, stalled, { timeout_ms: context.timeoutMs, max_retries: 0 })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) => {
    const message = `unexpected status 401 Unauthorized: Incorrect API key provided: ${context.secret}`;
    return (await backendPlaying(context, { transcript: [{ type: 'turn.failed', error: { message } }], exitCode: 1 })).createChatModel({ role: 'optimizer' });
  },
});
