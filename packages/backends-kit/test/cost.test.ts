import { ERROR_CODES } from '@skillopt/contract';
import { ANY_MODEL, createCostCalculator, estimateTokens, estimateUsage, type PriceTable } from '../src/index';

// Made-up prices: this package ships none, and tests must not look like real price claims.
const defaultTable: PriceTable = [
  {
    provider: 'acme',
    modelId: 'acme-large',
    inputUsdPerMillionTokens: 2,
    cachedInputUsdPerMillionTokens: 0.5,
    outputUsdPerMillionTokens: 8,
    source: 'https://example.test/acme-pricing',
    asOf: '2026-01-15',
  },
  {
    provider: 'acme',
    modelId: 'acme-small',
    inputUsdPerMillionTokens: 1,
    outputUsdPerMillionTokens: 4,
    source: 'https://example.test/acme-pricing',
    asOf: '2026-01-15',
  },
];

describe('createCostCalculator', () => {
  it('bills uncached input, cached input and output at their own rates', () => {
    const calculator = createCostCalculator(defaultTable);
    const cost = calculator.costOf('acme', 'acme-large', {
      inputTokens: 1_000_000,
      cachedInputTokens: 400_000,
      outputTokens: 250_000,
      reasoningTokens: 50_000,
    });
    expect(cost).not.toBeNull();
    expect(cost?.inputUsd).toBeCloseTo(1.2); // 600k uncached at $2/M
    expect(cost?.cachedInputUsd).toBeCloseTo(0.2); // 400k at $0.5/M
    expect(cost?.outputUsd).toBeCloseTo(2); // 250k (reasoning included) at $8/M
    expect(cost?.totalUsd).toBeCloseTo(3.4);
    expect(cost?.estimated).toBe(false);
    expect(cost?.price).toMatchObject({ source: 'https://example.test/acme-pricing', asOf: '2026-01-15' });
  });

  it('bills cache writes at their own rate, apart from reads and the rest of the input', () => {
    const table = [{ ...defaultTable[0]!, cacheWriteInputUsdPerMillionTokens: 2.5 }];
    const cost = createCostCalculator(table).costOf('acme', 'acme-large', {
      inputTokens: 1_000_000,
      cachedInputTokens: 400_000,
      cacheWriteInputTokens: 200_000,
      outputTokens: 0,
    });
    expect(cost?.inputUsd).toBeCloseTo(0.8); // 400k neither read nor written at $2/M
    expect(cost?.cachedInputUsd).toBeCloseTo(0.2); // 400k at $0.5/M
    expect(cost?.cacheWriteInputUsd).toBeCloseTo(0.5); // 200k at $2.5/M
    expect(cost?.totalUsd).toBeCloseTo(1.5);
  });

  it('bills cache writes at the input rate when the table names no write rate, and clamps them to the input', () => {
    const calculator = createCostCalculator(defaultTable);
    const cost = calculator.costOf('acme', 'acme-large', { inputTokens: 1_000_000, cacheWriteInputTokens: 300_000, outputTokens: 0 });
    expect(cost?.cacheWriteInputUsd).toBeCloseTo(0.6);
    expect(cost?.totalUsd).toBeCloseTo(2);
    const overCounted = calculator.costOf('acme', 'acme-large', { inputTokens: 100, cachedInputTokens: 60, cacheWriteInputTokens: 80, outputTokens: 0 });
    expect((overCounted?.inputUsd ?? -1) + (overCounted?.cacheWriteInputUsd ?? -1)).toBeCloseTo((40 * 2) / 1_000_000);
  });

  it('refuses a negative cache-write rate', () => {
    expect(() => createCostCalculator([{ ...defaultTable[0]!, cacheWriteInputUsdPerMillionTokens: -1 }])).toThrow(/cacheWriteInputUsdPerMillionTokens/);
  });

  it('bills cached input at the input rate when the table names no cached rate', () => {
    const cost = createCostCalculator(defaultTable).costOf('acme', 'acme-small', { inputTokens: 1_000_000, cachedInputTokens: 500_000, outputTokens: 0 });
    expect(cost?.totalUsd).toBeCloseTo(1);
  });

  it('lets a user override win over the default table', () => {
    const calculator = createCostCalculator(defaultTable, [
      {
        provider: 'acme',
        modelId: 'acme-large',
        inputUsdPerMillionTokens: 1,
        outputUsdPerMillionTokens: 1,
        source: 'our negotiated contract',
        asOf: '2026-02-01',
      },
    ]);
    const cost = calculator.costOf('acme', 'acme-large', { inputTokens: 1_000_000, outputTokens: 1_000_000 });
    expect(cost?.totalUsd).toBeCloseTo(2);
    expect(cost?.price.source).toBe('our negotiated contract');
    // The other models of the default table are still there.
    expect(calculator.priceOf('acme', 'acme-small')?.inputUsdPerMillionTokens).toBe(1);
  });

  it('gives null for a model it has no price for, never a guess from a similar one', () => {
    const calculator = createCostCalculator(defaultTable);
    expect(calculator.costOf('acme', 'acme-large-2026-03-01', { inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(calculator.costOf('other', 'acme-large', { inputTokens: 10, outputTokens: 10 })).toBeNull();
    expect(createCostCalculator().costOf('acme', 'acme-large', { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });

  it('prices every model of a provider by its `*` entry, unless the model has its own', () => {
    const localServer = {
      provider: 'local',
      inputUsdPerMillionTokens: 0,
      outputUsdPerMillionTokens: 0,
      source: 'runs on your own machine',
      asOf: '2026-01-15',
    };
    const calculator = createCostCalculator([
      { ...localServer, modelId: ANY_MODEL },
      { ...localServer, modelId: 'local-premium', outputUsdPerMillionTokens: 1 },
    ]);
    expect(calculator.costOf('local', 'any-model-at-all', { inputTokens: 100, outputTokens: 100 })?.totalUsd).toBe(0);
    expect(calculator.costOf('local', 'local-premium', { inputTokens: 0, outputTokens: 1_000_000 })?.totalUsd).toBe(1);
    expect(calculator.costOf('acme', 'any-model-at-all', { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });

  it('marks the cost of estimated usage as estimated', () => {
    const cost = createCostCalculator(defaultTable).costOf('acme', 'acme-small', estimateUsage('x'.repeat(4000), 'y'.repeat(400)));
    expect(cost).toMatchObject({ estimated: true });
    expect(cost?.totalUsd).toBeCloseTo((1000 * 1 + 100 * 4) / 1_000_000);
  });

  it('refuses a price table with negative rates, no source, a bad date or duplicates', () => {
    const valid = defaultTable[1]!;
    expect(() => createCostCalculator([{ ...valid, outputUsdPerMillionTokens: -1 }])).toThrow(expect.objectContaining({ code: ERROR_CODES.configInvalid }));
    expect(() => createCostCalculator([{ ...valid, source: ' ' }])).toThrow(/source/);
    expect(() => createCostCalculator([{ ...valid, asOf: 'last week' }])).toThrow(/asOf/);
    expect(() => createCostCalculator([valid, valid])).toThrow(/listed twice/);
  });
});

describe('estimateTokens', () => {
  it('counts about one token per four characters, rounding up', () => {
    expect(estimateTokens('')).toBe(0);
    expect(estimateTokens('abc')).toBe(1);
    expect(estimateTokens('abcd')).toBe(1);
    expect(estimateTokens('abcde')).toBe(2);
    expect(estimateTokens('x'.repeat(4000))).toBe(1000);
  });

  it('builds a usage marked as estimated', () => {
    expect(estimateUsage('a'.repeat(8), 'b'.repeat(5))).toEqual({ inputTokens: 2, outputTokens: 2, estimated: true });
  });
});
