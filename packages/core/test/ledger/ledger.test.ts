import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { createCostCalculator, type PriceTable } from '@skillopt/backends-kit';
import { createLedger, restoreLedger, type Ledger, type LedgerRecordInput } from '../../src/ledger/index';

// Made-up prices, so the tests claim nothing about real ones.
const prices: PriceTable = [
  {
    provider: 'acme',
    modelId: 'acme-large',
    inputUsdPerMillionTokens: 2,
    cachedInputUsdPerMillionTokens: 0.5,
    outputUsdPerMillionTokens: 8,
    source: 'https://example.test/prices',
    asOf: '2026-01-15',
  },
];
const costCalculator = createCostCalculator(prices);
const fixedClock = () => new Date('2026-02-01T12:00:00.000Z');

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'skillopt-ledger-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

const optimizerCall = (overrides: Partial<LedgerRecordInput> = {}): LedgerRecordInput => ({
  role: 'optimizer',
  purpose: 'reflect',
  provider: 'acme',
  modelId: 'acme-large',
  usage: { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 250_000 },
  latencyMs: 1200,
  ...overrides,
});
const targetCall = (overrides: Partial<LedgerRecordInput> = {}): LedgerRecordInput => ({
  role: 'target',
  purpose: 'rollout',
  provider: 'local',
  modelId: 'unpriced-model',
  usage: { inputTokens: 100, outputTokens: 10 },
  latencyMs: 50,
  ...overrides,
});

function spentError(ledger: Ledger): SkillOptError {
  try {
    ledger.assertWithinBudget();
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected the budget to be spent');
}

describe('the ledger', () => {
  it('prices calls from the table and keeps an unknown model’s cost unknown', () => {
    const ledger = createLedger({ costCalculator, now: fixedClock });
    const priced = ledger.record(optimizerCall());
    const unpriced = ledger.record(targetCall());
    expect(priced.costUsd).toBeCloseTo(3.4);
    expect(unpriced.costUsd).toBeNull();
    expect(priced).toMatchObject({ sequence: 1, timestamp: '2026-02-01T12:00:00.000Z', outcome: 'succeeded', cacheHit: false });
    expect(unpriced.sequence).toBe(2);
    expect(createLedger().record(optimizerCall()).costUsd).toBeNull();
  });

  it('totals by role, by purpose and by both; cache hits and failures are counted apart', () => {
    const ledger = createLedger({ costCalculator, now: fixedClock });
    ledger.setGlobalStep(3);
    ledger.record(optimizerCall());
    ledger.record(optimizerCall({ purpose: 'merge', usage: { inputTokens: 1000, outputTokens: 100 } }));
    ledger.record(targetCall());
    ledger.record(targetCall({ usage: undefined, outcome: 'failed', errorCode: 'provider-timeout' }));
    ledger.record(targetCall({ cacheHit: true }));
    ledger.record(targetCall({ usage: { inputTokens: 7, outputTokens: 3, estimated: true }, purpose: 'judge', role: 'judge' }));

    const totals = ledger.totals();
    expect(totals.overall).toMatchObject({ calls: 5, failedCalls: 1, cacheHits: 1, unpricedCalls: 3, estimatedUsageCalls: 1 });
    expect(totals.overall.inputTokens).toBe(1_000_000 + 1000 + 100 + 7);
    expect(totals.byRole.optimizer).toMatchObject({ calls: 2, inputTokens: 1_001_000, outputTokens: 250_100, cachedInputTokens: 400_000, unpricedCalls: 0 });
    expect(totals.byRole.optimizer?.costUsd).toBeCloseTo(3.4 + (1000 * 2 + 100 * 8) / 1_000_000);
    expect(totals.byRole.target).toMatchObject({ calls: 2, failedCalls: 1, cacheHits: 1, inputTokens: 100, costUsd: 0, unpricedCalls: 2 });
    expect(totals.byPurpose.merge).toMatchObject({ calls: 1, inputTokens: 1000 });
    expect(totals.byRoleAndPurpose.optimizer?.reflect).toMatchObject({ calls: 1 });
    expect(totals.byRoleAndPurpose.judge?.judge).toMatchObject({ calls: 1, estimatedUsageCalls: 1 });
    expect(ledger.entries().every((entry) => entry.globalStep === 3)).toBe(true);
    expect(ledger.entries()[4]).toMatchObject({ cacheHit: true, costUsd: 0 });
  });

  it('stops with a budget-spent error that names the role, the limit and how to continue', () => {
    const ledger = createLedger({
      costCalculator,
      budgets: { optimizer: { maxCalls: 2, maxUsd: 100 }, target: { maxTokens: 1000 } },
      budgetMessages: { resumeCommand: 'skillopt train --resume runs/demo' },
    });
    ledger.record(optimizerCall());
    expect(ledger.budgetStatus().spent).toBe(false);
    expect(() => ledger.assertWithinBudget()).not.toThrow();
    ledger.record(optimizerCall());

    const status = ledger.budgetStatus();
    expect(status.spent).toBe(true);
    expect(status.spentLimits).toEqual([expect.objectContaining({ scope: 'optimizer', limit: 'maxCalls', max: 2, used: 2, remaining: 0 })]);
    expect(status.limits.find((limit) => limit.limit === 'maxUsd')).toMatchObject({ spent: false, remaining: expect.any(Number) });
    expect(ledger.budgetStatus(['target', 'total']).spent).toBe(false);
    expect(() => ledger.assertWithinBudget(['target'])).not.toThrow();

    const error = spentError(ledger);
    expect(error.code).toBe(ERROR_CODES.budgetSpent);
    expect(error.category).toBe('user');
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'The optimizer budget is spent: 2 of 2 calls used (budget.optimizer.max_calls). The run stopped in a resumable state; nothing committed is lost. To continue, raise the limit and resume: skillopt train --resume runs/demo --set budget.optimizer.max_calls=4',
    );
    expect(error.details).toMatchObject({ role: 'optimizer', limit: 'maxCalls', max: 2, used: 2, configKey: 'budget.optimizer.max_calls' });
  });

  it('stops once the wall time of this session of the run reaches total.maxWallSeconds', () => {
    let now = Date.parse('2026-02-01T12:00:00.000Z');
    const ledger = createLedger({ costCalculator, now: () => new Date(now), budgets: { total: { maxWallSeconds: 60 } } });
    now += 59_000;
    expect(() => ledger.assertWithinBudget()).not.toThrow();
    now += 1_000;
    expect(spentError(ledger).message).toMatch(/^The total budget is spent: 60 of 60 s of wall time used \(budget\.total\.max_wall_seconds\)\./);
    expect(() => createLedger({ budgets: { target: { maxWallSeconds: 1 } } })).toThrow(/set it as total\.maxWallSeconds/);
  });

  it('says when a dollar limit cannot see calls of unpriced models', () => {
    const ledger = createLedger({ costCalculator, budgets: { total: { maxUsd: 1 } } });
    ledger.record(optimizerCall());
    ledger.record(targetCall());
    expect(spentError(ledger).message).toMatch(
      /The total budget is spent: \$3\.40 of \$1\.00 used \(budget\.total\.max_usd\) \(1 call to a model without a price is not counted\)/,
    );
  });

  it('rejects nonsensical budgets', () => {
    expect(() => createLedger({ budgets: { optimizer: { maxCalls: -1 } } })).toThrow(/at least 0/);
    expect(() => createLedger({ budgets: { optimizer: { maxCalls: 1.5 } } })).toThrow(/whole number/);
    expect(() => createLedger({ budgets: { teacher: { maxCalls: 1 } } as never })).toThrow(/Unknown budget scope/);
  });

  it('appends to ledger.jsonl as it goes, and restores from it so totals and budgets continue', async () => {
    const file = path.join(directory, 'ledger.jsonl');
    const first = createLedger({ costCalculator, budgets: { optimizer: { maxCalls: 2 } }, filePath: file });
    first.record(optimizerCall());
    const merge = first.begin({
      role: 'optimizer',
      purpose: 'merge',
      provider: 'acme',
      modelId: 'acme-large',
      estimatedUsage: { inputTokens: 10, outputTokens: 0 },
    });
    await merge.written;
    expect(
      (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).line),
    ).toEqual(['call-recorded', 'call-started']);
    merge.succeeded({ usage: { inputTokens: 1_000, outputTokens: 100 }, latencyMs: 30 });
    first.record(targetCall());
    await first.flush();
    expect(
      (await readFile(file, 'utf8'))
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).line),
    ).toEqual(['call-recorded', 'call-started', 'call-finished', 'call-recorded']);

    const resumedSameBudget = await restoreLedger(file, { costCalculator, budgets: { optimizer: { maxCalls: 2 } } });
    expect(() => resumedSameBudget.assertWithinBudget()).toThrow(/optimizer budget is spent/);

    const resumed = await restoreLedger(file, { costCalculator, budgets: { optimizer: { maxCalls: 4 } } });
    expect(resumed.entries()).toEqual(first.entries());
    expect(resumed.totals()).toEqual(first.totals());
    expect(() => resumed.assertWithinBudget()).not.toThrow();
    expect(resumed.record(optimizerCall()).sequence).toBe(4);
    expect(resumed.totals().byRole.optimizer?.calls).toBe(3);
    expect(resumed.budgetStatus().limits[0]).toMatchObject({ used: 3, remaining: 1 });
  });

  it('counts a call a killed session started and never finished, at its estimated usage and price', async () => {
    const file = path.join(directory, 'ledger.jsonl');
    const killed = createLedger({ costCalculator, filePath: file });
    await killed.begin({
      role: 'optimizer',
      purpose: 'reflect',
      provider: 'acme',
      modelId: 'acme-large',
      estimatedUsage: { inputTokens: 500_000, outputTokens: 0 },
    }).written;
    // The process dies here: no finish line. A torn line of a write cut off by the kill follows.
    await writeFile(file, `${await readFile(file, 'utf8')}{"line":"call-fin`);
    const resumed = await restoreLedger(file, { costCalculator, budgets: { optimizer: { maxCalls: 1 } } });
    expect(resumed.entries()).toEqual([
      expect.objectContaining({
        sequence: 1,
        outcome: 'incomplete',
        purpose: 'reflect',
        usage: { inputTokens: 500_000, outputTokens: 0, estimated: true },
        costUsd: 1,
      }),
    ]);
    expect(resumed.totals().overall).toMatchObject({ calls: 1, incompleteCalls: 1, estimatedUsageCalls: 1 });
    expect(() => resumed.assertWithinBudget()).toThrow(/optimizer budget is spent/);
  });

  it('starts empty without a ledger.jsonl and gives a clear error for a damaged one', async () => {
    const file = path.join(directory, 'ledger.jsonl');
    expect((await restoreLedger(file)).entries()).toEqual([]);
    await writeFile(file, '{"line": "call-recorded", "sequence": "one"}\n');
    await expect(restoreLedger(file)).rejects.toThrow(/ledger\.jsonl has 1 line\(s\) that are not ledger lines \(the first, line 1/);
  });

  it('keeps the ledger readable whatever usage a backend reports', () => {
    const entry = createLedger().record(optimizerCall({ usage: { inputTokens: -5, outputTokens: 2.6, extra: 1 } as never, latencyMs: Number.NaN }));
    expect(entry.usage).toEqual({ inputTokens: 0, outputTokens: 3 });
    expect(entry.latencyMs).toBe(0);
  });
});
