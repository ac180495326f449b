import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, describeChatModelConformance, type ConformanceContext } from '@skillopt/backends-kit/conformance';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import type { FakeHarnessScenario } from '@skillopt/backends-kit/testing';
import { createBackend, type OpencodeBackendConfigInput } from '../src/index';
import { fakeOpencode, opencodeTranscript } from './fake-opencode';

/** The backend driving a fake `opencode` that plays `scenario`, with the check's secret as its key. */
async function backendPlaying(context: ConformanceContext, scenario: FakeHarnessScenario, config: OpencodeBackendConfigInput = {}) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'opencode-conformance-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  const fake = await fakeOpencode(directory, scenario);
  return createBackend({ path: fake.command, ...config }, { environment: { OPENCODE_API_KEY: context.secret }, rateLimiters: createRateLimiterRegistry() });
}

const stepsWithoutTokens = opencodeTranscript('Paris.').map((event) => (event.type === 'step_finish' ? { ...event, part: { type: 'step-finish' } } : event));

const answering: FakeHarnessScenario = { transcript: opencodeTranscript('The conformance suite placed it.') };
const withoutUsage: FakeHarnessScenario = { transcript: stepsWithoutTokens };
const stalled: FakeHarnessScenario = { transcript: opencodeTranscript('').slice(0, 1), exitDelayMs: 120_000 };
const crashing: FakeHarnessScenario = {
  transcript: opencodeTranscript('').slice(0, 1),
  echoEnvironment: ['SKILLOPT_OPENCODE_API_KEY'],
  crashSignal: 'SIGKILL',
};
const silent: FakeHarnessScenario = { transcript: opencodeTranscript('') };

describeAgentRunnerConformance({
  name: '@skillopt/backends-opencode (agent runner, fake opencode)',
  createAnsweringRunner: async (context) => (await backendPlaying(context, answering)).createAgentRunner({ role: 'target' }),
  createRunnerWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createAgentRunner({ role: 'target' }),
  createStalledRunner: async (context) => (await backendPlaying(context, stalled)).createAgentRunner({ role: 'target' }),
  createCrashingRunner: async (context) => (await backendPlaying(context, crashing)).createAgentRunner({ role: 'target' }),
  createSilentRunner: async (context) => (await backendPlaying(context, silent)).createAgentRunner({ role: 'target' }),
});

describeChatModelConformance({
  name: '@skillopt/backends-opencode (chat model, fake opencode)',
  createAnsweringModel: async (context) => (await backendPlaying(context, answering)).createChatModel({ role: 'optimizer' }),
  createModelWithoutReportedUsage: async (context) => (await backendPlaying(context, withoutUsage)).createChatModel({ role: 'optimizer' }),
  createStalledModel: async (context) =>
    (await backendPlaying(context, stalled, { timeout_ms: context.timeoutMs, max_retries: 0 })).createChatModel({ role: 'optimizer' }),
  createRejectedModel: async (context) => {
    const error = { name: 'APIError', data: { message: `Incorrect API key provided: ${context.secret}`, statusCode: 401 } };
    return (await backendPlaying(context, { transcript: [{ type: 'error', error }], exitCode: 1 })).createChatModel({ role: 'optimizer' });
  },
});
