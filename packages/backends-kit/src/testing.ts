// `@skillopt/backends-kit/testing`: test doubles for backend authors, kept out of the main entry so
// production code never loads them. A loopback HTTP server that injects the faults providers show
// (also as a proxy in front of a real server, and under a seeded storm of faults), and a fake agent harness: a real executable that
// replays a transcript with the exit code, delay or crash a test asks for; and a reference runner
// built on the agent-run flow that drives it.
export {
  startFaultInjectingServer,
  type FaultInjectingServer,
  type FaultInjectingServerOptions,
  type RecordedRequest,
  type ScriptedReply,
} from './testing/fault-injecting-server.js';
export { seededFaultStorm, type FaultStorm, type FaultStormOptions, type FaultStormRates } from './testing/fault-storm.js';
export {
  hangingReply,
  malformedBodyReply,
  notFoundReply,
  rateLimitedReply,
  resetReply,
  serverErrorReply,
  unauthorizedReply,
} from './testing/scripted-faults.js';
export {
  installFakeHarness,
  prepareFakeHarness,
  type FakeHarnessCommand,
  type FakeHarnessInvocation,
  type FakeHarnessScenario,
} from './testing/fake-harness.js';
export {
  createReferenceHarnessRunner,
  referenceHarnessAgentTarget,
  referenceHarnessTranscript,
  REFERENCE_HARNESS_API_KEY_VARIABLE,
  REFERENCE_HARNESS_PROVIDER,
  REFERENCE_HARNESS_SKILL_FILE,
  type ReferenceHarnessRunnerOptions,
} from './testing/reference-harness-runner.js';
