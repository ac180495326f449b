import { readGenerateRequest, SkillOptError, type AgentRunner, type ChatModel, type GenerateResult } from '@skillopt/contract';
import { runAgentRunnerConformance, runChatModelConformance, type ConformanceCheckOutcome } from '../src/conformance';
import { withTimeout } from '../src/index';

/*
 * The suite must fail what does not conform, each check for its own reason: these doubles break
 * every rule once, and each check's verdict is asserted.
 */

const neverSettles = new Promise<never>(() => undefined);

/** A chat model that breaks every rule: no capabilities, empty answers, ignored signals and fields, leaked keys. */
function brokenChatModel(secret: string, behaviour: 'answers' | 'stalls' | 'rejects'): ChatModel {
  return {
    specificationVersion: 'v1',
    provider: 'broken',
    modelId: 'broken-1',
    async generate(): Promise<GenerateResult> {
      if (behaviour === 'stalls') return neverSettles;
      if (behaviour === 'rejects') throw new Error(`401 Unauthorized: the key ${secret} is invalid`);
      return { text: '', usage: { inputTokens: 3, outputTokens: 0 }, finishReason: 'stop' };
    },
  };
}

function verdicts(outcomes: readonly ConformanceCheckOutcome[]): Record<string, string> {
  return Object.fromEntries(outcomes.map((outcome) => [outcome.name, outcome.passed ? 'passed' : String((outcome.error as Error).message)]));
}

describe('the backend conformance suite', () => {
  it('fails a chat model that breaks the contract, each check for its own reason', async () => {
    const outcomes = await runChatModelConformance({
      createAnsweringModel: (context) => brokenChatModel(context.secret, 'answers'),
      createStalledModel: (context) => brokenChatModel(context.secret, 'stalls'),
      createRejectedModel: (context) => brokenChatModel(context.secret, 'rejects'),
      createModelWithoutReportedUsage: (context) => brokenChatModel(context.secret, 'answers'),
      timeoutMs: 100,
      settleGraceMs: 300,
    });
    expect(outcomes.every((outcome) => !outcome.passed)).toBe(true);
    const byCheck = verdicts(outcomes);
    expect(byCheck['declares its specification version, provider, model and capabilities']).toMatch(/capabilities must be declared/);
    expect(byCheck['awaits the announcement of each request before sending it, when it declares announcesDispatch']).toMatch(/capabilities must be declared/);
    expect(byCheck['answers with a valid result, its usage filled (and marked estimated when it reports none)']).toMatch(/the answer is empty/);
    expect(byCheck['marks usage as estimated when the provider reports no token counts']).toMatch(/must be marked estimated/);
    expect(byCheck['answers a request with a field it does not know, and reports that field as a warning']).toMatch(/unknown-field warning/);
    expect(byCheck['refuses an invalid request with a non-retryable SkillOptError instead of answering it']).toMatch(/it answered/);
    expect(byCheck["honours an abort promptly, rejecting with the signal's reason"]).toMatch(/still pending/);
    expect(byCheck['turns a provider that never answers into a retryable provider-timeout at its time limit']).toMatch(/still pending after 400 ms/);
    expect(byCheck['keeps its credential out of every error, even when the provider quotes it back']).toMatch(
      /the error text contains the credential: Error: 401 Unauthorized: the key <the secret> is invalid/,
    );
  });

  it('fails a model that declares announcesDispatch but sends without awaiting the announcement', async () => {
    const careless: ChatModel = {
      specificationVersion: 'v1',
      provider: 'echo',
      modelId: 'echo-1',
      capabilities: { reportedUsage: true, announcesDispatch: true },
      defaultConcurrency: 0,
      async generate(request) {
        void request.onDispatch?.().catch(() => undefined);
        return { text: 'Paris.', usage: { inputTokens: 3, outputTokens: 1 }, finishReason: 'stop' };
      },
    };
    const outcomes = await runChatModelConformance({
      createAnsweringModel: () => careless,
      createStalledModel: () => careless,
      timeoutMs: 100,
      settleGraceMs: 300,
    });
    const byCheck = verdicts(outcomes);
    expect(byCheck['awaits the announcement of each request before sending it, when it declares announcesDispatch']).toMatch(/did not await it before sending/);
    expect(byCheck['declares its specification version, provider, model and capabilities']).toMatch(/defaultConcurrency must be a whole number of at least 1/);
  });

  it('leaves out the checks whose factories a backend cannot provide, and passes a model that conforms', async () => {
    const model: ChatModel = {
      specificationVersion: 'v1',
      provider: 'echo',
      modelId: 'echo-1',
      capabilities: { reportedUsage: false },
      async generate(request) {
        const reading = readGenerateRequest(request);
        if (!reading.ok) throw new SkillOptError({ code: 'data-invalid', category: 'internal', message: reading.problems.join('; ') });
        return {
          text: 'Paris.',
          usage: { inputTokens: 10, outputTokens: 2, estimated: true },
          finishReason: 'stop',
          ...(reading.warnings.length > 0 ? { warnings: reading.warnings } : {}),
        };
      },
    };
    const stalled = (timeoutMs: number): ChatModel => ({
      ...model,
      generate: (request) =>
        withTimeout((signal) => new Promise<never>((_resolve, reject) => signal.addEventListener('abort', () => reject(signal.reason))), {
          timeoutMs,
          provider: 'echo',
          ...(request.signal ? { signal: request.signal } : {}),
        }),
    });
    const outcomes = await runChatModelConformance({ createAnsweringModel: () => model, createStalledModel: (context) => stalled(context.timeoutMs) });
    expect(outcomes.map((outcome) => outcome.name)).not.toContain('keeps its credential out of every error, even when the provider quotes it back');
    expect(outcomes.filter((outcome) => !outcome.passed)).toEqual([]);
    expect(outcomes).toHaveLength(7);
  });

  it('fails an agent runner that breaks the contract, each check for its own reason', async () => {
    const broken = (secret: string, behaviour: 'answers' | 'stalls' | 'crashes' | 'silent'): AgentRunner => ({
      specificationVersion: 'v1',
      provider: 'broken',
      modelId: 'broken-1',
      capabilities: { reportedUsage: true },
      async run() {
        if (behaviour === 'stalls') return neverSettles;
        if (behaviour === 'crashes') throw new Error(`harness died; environment: API_KEY=${secret}`);
        return {
          finalText: behaviour === 'silent' ? '' : 'done',
          transcript: [],
          usage: { inputTokens: 1, outputTokens: 1 },
          exitStatus: { code: 0, signal: null, timedOut: false },
        };
      },
    });
    const outcomes = await runAgentRunnerConformance({
      createAnsweringRunner: (context) => broken(context.secret, 'answers'),
      createStalledRunner: (context) => broken(context.secret, 'stalls'),
      createCrashingRunner: (context) => broken(context.secret, 'crashes'),
      createSilentRunner: (context) => broken(context.secret, 'silent'),
      timeoutMs: 100,
      settleGraceMs: 300,
    });
    const byCheck = verdicts(outcomes);
    expect(byCheck["runs in the caller's workspace and answers with a valid result: exit status and usage filled, files left in place"]).toMatch(
      /transcript must keep/,
    );
    expect(byCheck['answers a request with a field it does not know, and reports that field as a warning']).toMatch(/unknown-field warning/);
    expect(byCheck['refuses an invalid request with a non-retryable SkillOptError instead of running it']).toMatch(/it answered/);
    expect(byCheck["honours an abort promptly, rejecting with the signal's reason"]).toMatch(/still pending/);
    expect(byCheck['turns a harness that never finishes into a retryable timeout error at its time limit']).toMatch(/still pending after 400 ms/);
    expect(byCheck['turns a crash into a retryable error that keeps the credential the harness printed out of it']).toMatch(
      /contains the credential: Error: harness died; environment: API_KEY=<the secret>/,
    );
    expect(byCheck['never returns an empty answer: a run without one is a retryable error']).toMatch(/it answered/);
    expect(byCheck['declares its specification version, provider, model and capabilities']).toBe('passed');
  });
});
