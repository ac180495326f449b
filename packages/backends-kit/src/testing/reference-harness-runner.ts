import type { AgentRunner, AgentRunRequest, Target, TranscriptEvent, Usage } from '@skillopt/contract';
import { createHarnessRunner } from '../agent-run.js';
import type { HarnessDefinition, TranscriptOutcome, TranscriptTranslation } from '../harness-definition.js';
import type { RateLimiter } from '../rate-limiter.js';
import { installSkillAsFile } from '../skill-installation.js';
import { prepareFakeHarness, type FakeHarnessScenario } from './fake-harness.js';

/**
 * A reference runner built on the agent-run flow, driving the fake harness: what a harness package
 * writes (a command line, a transcript reader, a skill installation) and nothing more. It is the
 * agent half of the conformance suite's own test, and a template for real harness packages.
 *
 * Its transcript dialect, one JSON object a line:
 * - `{"type":"message","role":"assistant","text":"…"}`: a step of the agent; the last one is the
 *   answer when no `result` comes;
 * - `{"type":"result","text":"…","usage":{"input_tokens":n,"output_tokens":m}}`: the final answer,
 *   with the token counts when the harness reports them;
 * - `{"type":"error","message":"…","retryable":false}`: a failure the harness reports.
 */

export const REFERENCE_HARNESS_PROVIDER = 'reference-harness';
/** The variable the reference harness gets its API key in. */
export const REFERENCE_HARNESS_API_KEY_VARIABLE = 'REFERENCE_HARNESS_API_KEY';
/** Where the reference harness reads its skill, as Codex does. */
export const REFERENCE_HARNESS_SKILL_FILE = 'AGENTS.md';

export interface ReferenceHarnessRunnerOptions {
  /** Where the fake harness and its scenario files are written: a directory the test owns. */
  directory: string;
  /** What the harness does in each run (or a function of the run's request). */
  scenario: FakeHarnessScenario | ((request: AgentRunRequest) => FakeHarnessScenario);
  modelId?: string;
  /** Given to the harness in REFERENCE_HARNESS_API_KEY, as a real CLI gets its key. */
  apiKey?: string;
  terminationGraceMs?: number;
  maxTranscriptBytes?: number;
  rateLimiter?: RateLimiter;
}

/** The transcript of a run that answers `answer`, reporting `usage` when given. */
export function referenceHarnessTranscript(answer: string, usage?: Pick<Usage, 'inputTokens' | 'outputTokens'>): TranscriptEvent[] {
  return [
    { type: 'message', role: 'assistant', text: 'Reading the task and the skill.' },
    { type: 'tool', name: 'read_file', input: { path: REFERENCE_HARNESS_SKILL_FILE } },
    {
      type: 'result',
      text: answer,
      ...(usage ? { usage: { input_tokens: usage.inputTokens, output_tokens: usage.outputTokens } } : {}),
    },
  ];
}

function readReferenceTranscript(): TranscriptTranslation {
  let lastMessage: string | undefined;
  let result: string | undefined;
  let usage: Usage | undefined;
  let failure: TranscriptOutcome['failure'];
  return {
    readEvent(event) {
      if (event.type === 'message' && event.role === 'assistant' && typeof event.text === 'string') lastMessage = event.text;
      if (event.type === 'result') {
        if (typeof event.text === 'string') result = event.text;
        const reported = event.usage as { input_tokens?: unknown; output_tokens?: unknown } | undefined;
        if (typeof reported?.input_tokens === 'number' && typeof reported.output_tokens === 'number')
          usage = { inputTokens: reported.input_tokens, outputTokens: reported.output_tokens };
      }
      if (event.type === 'error' && typeof event.message === 'string')
        failure = { message: event.message, ...(typeof event.retryable === 'boolean' ? { retryable: event.retryable } : {}) };
    },
    finish() {
      const finalText = result ?? lastMessage;
      return { ...(finalText !== undefined ? { finalText } : {}), ...(usage ? { usage } : {}), ...(failure ? { failure } : {}) };
    },
  };
}

export function createReferenceHarnessRunner(options: ReferenceHarnessRunnerOptions): AgentRunner {
  const definition: HarnessDefinition = {
    provider: REFERENCE_HARNESS_PROVIDER,
    modelId: options.modelId ?? 'reference-model',
    capabilities: { tools: true, reportedUsage: true },
    skillInstallation: installSkillAsFile(REFERENCE_HARNESS_SKILL_FILE),
    async commandLine({ request }) {
      const scenario = typeof options.scenario === 'function' ? options.scenario(request) : options.scenario;
      const { command, args } = await prepareFakeHarness(options.directory, scenario);
      const environment: Record<string, string> = {};
      if (options.apiKey) environment[REFERENCE_HARNESS_API_KEY_VARIABLE] = options.apiKey;
      return { command, args, allowedEnvironmentVariables: ['PATH'], environment };
    },
    readTranscript: readReferenceTranscript,
    ...(options.terminationGraceMs === undefined ? {} : { terminationGraceMs: options.terminationGraceMs }),
    ...(options.maxTranscriptBytes === undefined ? {} : { maxTranscriptBytes: options.maxTranscriptBytes }),
    ...(options.rateLimiter ? { rateLimiter: options.rateLimiter } : {}),
  };
  return createHarnessRunner(definition);
}

/**
 * An agent target on the reference runner whose every run answers `answer(workspace)`: what an env's
 * agent-mode conformance test gives the suite (with env-kit's `createTaskFileAnswerer`, the answer
 * read from the task file the env wrote into the workspace).
 */
export function referenceHarnessAgentTarget(directory: string, answer: (workspace: string) => string): Target {
  return {
    kind: 'agent',
    runner: createReferenceHarnessRunner({ directory, scenario: (request) => ({ transcript: referenceHarnessTranscript(answer(request.workspace)) }) }),
  };
}
