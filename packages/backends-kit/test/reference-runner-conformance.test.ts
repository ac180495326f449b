import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeAgentRunnerConformance, type ConformanceContext } from '../src/conformance';
import { createReferenceHarnessRunner, referenceHarnessTranscript, REFERENCE_HARNESS_API_KEY_VARIABLE, type FakeHarnessScenario } from '../src/testing';

/** A reference runner over the fake harness playing `scenario`, its files in a directory the check removes. */
async function referenceRunner(context: ConformanceContext, scenario: FakeHarnessScenario) {
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), 'reference-harness-')));
  context.cleanUp(() => rm(directory, { recursive: true, force: true }));
  return createReferenceHarnessRunner({ directory, scenario, apiKey: context.secret, terminationGraceMs: 500 });
}

describeAgentRunnerConformance({
  name: 'the reference runner (agent-run flow over the fake harness)',
  createAnsweringRunner: (context) =>
    referenceRunner(context, { transcript: referenceHarnessTranscript('The conformance suite placed it.', { inputTokens: 420, outputTokens: 9 }) }),
  createRunnerWithoutReportedUsage: (context) => referenceRunner(context, { transcript: referenceHarnessTranscript('The conformance suite placed it.') }),
  createStalledRunner: (context) => referenceRunner(context, { transcript: [{ type: 'message', role: 'assistant', text: 'thinking' }], exitDelayMs: 120_000 }),
  createCrashingRunner: (context) =>
    referenceRunner(context, {
      transcript: [{ type: 'message', role: 'assistant', text: 'half way' }],
      echoEnvironment: [REFERENCE_HARNESS_API_KEY_VARIABLE],
      crashSignal: 'SIGABRT',
    }),
  createSilentRunner: (context) => referenceRunner(context, { transcript: [{ type: 'tool', name: 'ls' }] }),
});
