import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type PiBackendConfigInput } from '../src/index';
import { fakePi, piAssistantMessage, piTranscript } from './fake-pi';

/** The backend driving a fake `pi` that plays `scenario`, with the check's secret as its key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeHarnessScenario, config: PiBackendConfigInput = {}) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'pi-conformance-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const fake = await fakePi(directory, scenario);
  return createBackend({ path: fake.command, ...config }, { environment: { PI_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() });
}

const answering: FakeHarnessScenario = { transcript: piTranscript('The conformance suite placed it.') };
const withoutUsage: FakeHarnessScenario = { transcript: piTranscript('Paris.', null) };
const stalled: FakeHarnessScenario = { transcript: piTranscript('').slice(0, 3), exitDelayMs: 120_000 };
const crashing: FakeHarnessScenario = { transcript: piTranscript('').slice(0, 3), echoEnvironment: ['SKILLOPT_PI_API_KEY'], crashSignal: 'SIGKILL' };
const silent: FakeHarnessScenario = { transcript: piTranscript('').slice(0, 3) };

describeAgentRunnerConformance({
  name: '@skillopt/backends-pi (agent runner, fake pi)',
  createAnsweringRunner: async (context) => (await backendPlaying(context, answering)).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createAgentRunner({ role: 'target' }),
  createStalledRunner: async (context) => (await backendPlaying(context, stalled)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crashing)).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, silent)).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-pi (chat model, fake pi)',
  createAnsweringModel: async (context) => (await backendPlaying(context, answering)).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) =>
    (await backendPlaying(context, stalled, { timeout_ms: context.timeoutMs, max_retries: 0 })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) => {
    // Pi prints a refused request as an assistant message that stopped with `error`, and exits 0.
    const message = `401 Incorrect API key provided: ${context.secret}`;
    const refused = { ...piAssistantMessage('', { input: 0, output: 0 }, 'error'), errorMessage: message };
    return (await backendPlaying(context, { transcript: [{ type: 'message_end', message: refused }] })).createChatModel({ role: 'optimizer' });
  },
});
