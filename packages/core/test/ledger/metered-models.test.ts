import { ERROR_CODES, ProviderError, runEventSchema, type AgentRunner, type ChatModel, type GenerateRequest, type RunEvent } from '@skillopt/contract';
import { mkdtemp, readFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createCostCalculator } from '@skillopt/backends-kit';
import { createEventBus } from '../../src/events/index';
import { createLedger, meterAgentRunner, meterChatModel } from '../../src/ledger/index';

const costCalculator = createCostCalculator([
  {
    provider: 'acme',
    modelId: 'acme-large',
    inputUsdPerMillionTokens: 2,
    outputUsdPerMillionTokens: 8,
    source: 'https://example.test/prices',
    asOf: '2026-01-15',
  },
]);

/** A clock that advances 250 ms per reading: latency is measured, not waited for. */
function steppingClock(): () => number {
  let time = 0;
  return () => (time += 250);
}

function fakeChatModel(modelId: string, behaviour: (request: GenerateRequest) => Promise<void> = async () => undefined): ChatModel {
  return {
    specificationVersion: 'v1',
    provider: 'acme',
    modelId,
    async generate(request) {
      await behaviour(request);
      return { text: `reply to ${request.purpose}`, usage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 100 }, finishReason: 'stop' };
    },
  };
}

const request = (purpose: string): GenerateRequest => ({ messages: [{ role: 'user', content: 'hi' }], purpose });

describe('metered models', () => {
  it('records each chat call and emits usage-recorded events that satisfy the contract', async () => {
    const ledger = createLedger({ costCalculator });
    const bus = createEventBus({ runId: 'run-1', now: () => new Date('2026-02-01T00:00:00.000Z') });
    const events: RunEvent[] = [];
    bus.subscribe((event) => events.push(event));
    const model = meterChatModel(fakeChatModel('acme-large'), { role: 'optimizer', ledger, onEvent: bus.emit, now: steppingClock() });

    expect(model).toMatchObject({ provider: 'acme', modelId: 'acme-large', specificationVersion: 'v1' });
    expect((await model.generate(request('reflect'))).text).toBe('reply to reflect');
    await model.generate(request('merge'));

    expect(ledger.entries().map((entry) => [entry.role, entry.purpose, entry.latencyMs])).toEqual([
      ['optimizer', 'reflect', 250],
      ['optimizer', 'merge', 250],
    ]);
    expect(ledger.totals().byRole.optimizer).toMatchObject({ calls: 2, inputTokens: 2000, outputTokens: 400, cachedInputTokens: 200 });
    expect(events).toHaveLength(2);
    for (const event of events) expect(runEventSchema.safeParse(event).success).toBe(true);
    expect(events[0]).toEqual({
      type: 'usage-recorded',
      runId: 'run-1',
      timestamp: '2026-02-01T00:00:00.000Z',
      role: 'optimizer',
      purpose: 'reflect',
      provider: 'acme',
      modelId: 'acme-large',
      usage: { inputTokens: 1000, outputTokens: 200, cachedInputTokens: 100 },
      costUsd: (1000 * 2 + 200 * 8) / 1_000_000,
      cacheHit: false,
      latencyMs: 250,
    });
  });

  it('reports a null cost for a model without a price', async () => {
    const ledger = createLedger({ costCalculator });
    const events: RunEvent[] = [];
    const bus = createEventBus({ runId: 'run-1' });
    bus.subscribe((event) => events.push(event));
    await meterChatModel(fakeChatModel('mystery-model'), { role: 'target', ledger, onEvent: bus.emit }).generate(request('rollout'));
    expect(ledger.entries()[0]?.costUsd).toBeNull();
    expect(events[0]).toMatchObject({ type: 'usage-recorded', costUsd: null });
    expect(runEventSchema.safeParse(events[0]).success).toBe(true);
  });

  it('records a failed call and rethrows its error unchanged', async () => {
    const ledger = createLedger();
    const failure = new ProviderError({ code: ERROR_CODES.providerTimeout, message: 'timed out', provider: 'acme', retryable: true });
    const onEvent = jest.fn();
    const model = meterChatModel(
      fakeChatModel('acme-large', async () => {
        throw failure;
      }),
      { role: 'target', ledger, onEvent, now: steppingClock() },
    );
    await expect(model.generate(request('rollout'))).rejects.toBe(failure);
    expect(ledger.entries()[0]).toMatchObject({ outcome: 'failed', errorCode: 'provider-timeout', usage: { inputTokens: 0, outputTokens: 0 } });
    expect(ledger.totals().overall).toMatchObject({ calls: 1, failedCalls: 1 });
    expect(onEvent).not.toHaveBeenCalled();
  });

  it('refuses calls once the role’s budget is spent when asked to enforce it', async () => {
    const ledger = createLedger({ budgets: { optimizer: { maxCalls: 1 } } });
    const model = meterChatModel(fakeChatModel('acme-large'), { role: 'optimizer', ledger, enforceBudget: true });
    await model.generate(request('reflect'));
    await expect(model.generate(request('reflect'))).rejects.toMatchObject({ code: 'budget-spent', category: 'user', retryable: false });
    expect(ledger.entries()).toHaveLength(1);
    // Other roles are not held to the optimizer's limit.
    await expect(
      meterChatModel(fakeChatModel('acme-large'), { role: 'target', ledger, enforceBudget: true }).generate(request('rollout')),
    ).resolves.toBeDefined();
  });

  it('records agent runs under the purpose each run names', async () => {
    const runner: AgentRunner = {
      specificationVersion: 'v1',
      provider: 'codex',
      modelId: 'gpt-test',
      async run() {
        return {
          finalText: 'done',
          transcript: [],
          usage: { inputTokens: 40, outputTokens: 5, estimated: true },
          exitStatus: { code: 0, signal: null, timedOut: false },
        };
      },
    };
    const ledger = createLedger();
    const events: RunEvent[] = [];
    const bus = createEventBus({ runId: 'run-agent' });
    bus.subscribe((event) => events.push(event));
    const metered = meterAgentRunner(runner, { role: 'target', ledger, onEvent: bus.emit });
    expect((await metered.run({ skill: '', prompt: 'p', workspace: '/tmp/x', timeoutMs: 1000, purpose: 'rollout' })).finalText).toBe('done');
    await meterAgentRunner(runner, { role: 'judge', ledger }).run({ skill: '', prompt: 'p', workspace: '/tmp/x', timeoutMs: 1000, purpose: 'judge' });
    expect(ledger.entries().map((entry) => [entry.role, entry.purpose, entry.provider, entry.usage.estimated])).toEqual([
      ['target', 'rollout', 'codex', true],
      ['judge', 'judge', 'codex', true],
    ]);
    expect(ledger.totals().overall.estimatedUsageCalls).toBe(2);
    expect(runEventSchema.safeParse(events[0]).success).toBe(true);
  });

  describe('a model that announces its dispatch', () => {
    /** A model with its own queue: each call waits for `release` before it announces and "sends". */
    function queuedModel(options: { attempts?: number } = {}) {
      const releases: Array<() => void> = [];
      const model: ChatModel = {
        specificationVersion: 'v1',
        provider: 'acme',
        modelId: 'acme-large',
        capabilities: { announcesDispatch: true },
        defaultConcurrency: 4,
        async generate(request) {
          await new Promise<void>((release, reject) => {
            releases.push(release);
            request.signal?.addEventListener('abort', () => reject(request.signal?.reason), { once: true });
          });
          for (let attempt = 0; attempt < (options.attempts ?? 1); attempt += 1) await request.onDispatch?.();
          return { text: 'sent', usage: { inputTokens: 10, outputTokens: 2 }, finishReason: 'stop' };
        },
      };
      return { model, release: () => releases.shift()?.() };
    }

    async function ledgerLines(directory: string): Promise<Array<{ line: string }>> {
      const text = await readFile(path.join(directory, 'ledger.jsonl'), 'utf8').catch(() => '');
      return text
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as { line: string });
    }

    it('writes the start only when the call leaves its queue, once for several attempts, and keeps the default concurrency', async () => {
      const directory = await mkdtemp(path.join(os.tmpdir(), 'metered-dispatch-'));
      const ledger = createLedger({ filePath: path.join(directory, 'ledger.jsonl') });
      const queued = queuedModel({ attempts: 2 });
      const model = meterChatModel(queued.model, { role: 'target', ledger });
      expect(model.defaultConcurrency).toBe(4);
      const reply = model.generate(request('rollout'));
      await ledger.flush();
      expect(await ledgerLines(directory)).toEqual([]);
      queued.release();
      await reply;
      await ledger.flush();
      expect((await ledgerLines(directory)).map((line) => line.line)).toEqual(['call-started', 'call-finished']);
      expect(ledger.totals().overall.calls).toBe(1);
      await ledger.close();
    });

    it('leaves no line for a call stopped while it waited in the queue', async () => {
      const directory = await mkdtemp(path.join(os.tmpdir(), 'metered-dispatch-'));
      const ledger = createLedger({ filePath: path.join(directory, 'ledger.jsonl') });
      const controller = new AbortController();
      const model = meterChatModel(queuedModel().model, { role: 'target', ledger });
      const reply = model.generate({ ...request('rollout'), signal: controller.signal });
      controller.abort(new Error('stopped'));
      await expect(reply).rejects.toThrow('stopped');
      await ledger.flush();
      expect(await ledgerLines(directory)).toEqual([]);
      expect(ledger.totals().overall.calls).toBe(0);
      await ledger.close();
    });

    it('passes no announcement to a model that does not declare it, and writes the start before calling it', async () => {
      const ledger = createLedger();
      const seen: Array<{ announced: boolean; startedBefore: boolean }> = [];
      const started = jest.spyOn(ledger, 'begin');
      const model = meterChatModel(
        fakeChatModel('acme-large', async (received) => {
          seen.push({ announced: received.onDispatch !== undefined, startedBefore: started.mock.calls.length === 1 });
        }),
        { role: 'target', ledger },
      );
      await model.generate(request('rollout'));
      expect(seen).toEqual([{ announced: false, startedBefore: true }]);
    });
  });
});
