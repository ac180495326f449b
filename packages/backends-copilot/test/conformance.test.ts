import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, type CopilotBackendConfigInput } from '../src/index';
import { copilotTranscript, fakeCopilot, usageReport, type FakeCopilotScenario } from './fake-copilot';

/** The backend driving a fake `copilot` that plays `scenario`, with the check's secret as the provider's key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeCopilotScenario, config: CopilotBackendConfigInput = {}) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'copilot-conformance-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const fake = await fakeCopilot(directory, scenario);
  return createBackend(
    { path: fake.command, ...config },
    { environment: { COPILOT_PROVIDER_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() },
  );
}

const answering: FakeCopilotScenario = { transcript: copilotTranscript('The conformance suite placed it.'), usageReport: usageReport() };
const withoutUsage: FakeCopilotScenario = { transcript: copilotTranscript('Paris.') };
const stalled: FakeCopilotScenario = { transcript: copilotTranscript('').slice(0, 3), exitDelayMs: 120_000 };
const crashing: FakeCopilotScenario = { transcript: copilotTranscript('').slice(0, 3), echoEnvironment: ['COPILOT_PROVIDER_API_KEY'], crashSignal: 'SIGKILL' };
const silent: FakeCopilotScenario = { transcript: copilotTranscript('').slice(0, 6), usageReport: usageReport() };

describeAgentRunnerConformance({
  name: '@skillopt/backends-copilot (agent runner, fake copilot)',
  createAnsweringRunner: async (context) => (await backendPlaying(context, answering)).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createAgentRunner({ role: 'target' }),
  createStalledRunner: async (context) => (await backendPlaying(context, stalled)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crashing)).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, silent)).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-copilot (chat model, fake copilot)',
  createAnsweringModel: async (context) => (await backendPlaying(context, answering)).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) =>
    (await backendPlaying(context, stalled, { timeout_ms: context.timeoutMs, max_retries: 0 })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) => {
    const error = {
      type: 'session.error',
      data: { errorType: 'authentication', statusCode: 401, message: `Authentication failed with provider (HTTP 401): key ${context.secret} refused` },
    };
    return (await backendPlaying(context, { transcript: [error, { type: 'result', exitCode: 1 }], exitCode: 1 })).createChatModel({ role: 'optimizer' });
  },
});
