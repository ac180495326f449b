import type { ModelPrice, PriceTable, Usage } from '@skillopt/contract';
import { invalidOption } from '@skillopt/runtime-kit';

// The price types belong to the contract: backend packages ship their tables to core through it.
export type { ModelPrice, PriceTable } from '@skillopt/contract';

export interface Cost {
  totalUsd: number;
  /** Input not served from the cache. */
  inputUsd: number;
  cachedInputUsd: number;
  /** Input written to the prompt cache. */
  cacheWriteInputUsd: number;
  outputUsd: number;
  /** True when the usage itself was estimated from text length, so the cost is rough too. */
  estimated: boolean;
  /** The price used, with its source and date. */
  price: ModelPrice;
}

export interface CostCalculator {
  /** The price in force for a model (a user override first), or undefined when none is known. */
  priceOf(provider: string, modelId: string): ModelPrice | undefined;
  /**
   * The cost of `usage`, or null when the model has no price: an unknown cost is reported as
   * unknown, never guessed from a similar model's price.
   */
  costOf(provider: string, modelId: string, usage: Usage): Cost | null;
}

const TOKENS_PER_MILLION = 1_000_000;
/** The `modelId` of a price that covers every model of its provider without an entry of its own. */
export const ANY_MODEL = '*';

/**
 * A calculator over a backend's default table and the user's overrides. An override replaces
 * the default entry of the same provider and model as a whole. Model ids match exactly: a dated
 * snapshot (`model-2025-01-01`) needs its own entry, since snapshots are sometimes priced
 * differently. The one exception is a `modelId` of `*`, which prices every model of its provider
 * that has no entry of its own: for providers whose every model costs the same (a local server,
 * the simulated model).
 */
export function createCostCalculator(defaultTable: PriceTable = [], userOverrides: PriceTable = []): CostCalculator {
  const prices = new Map<string, ModelPrice>();
  for (const [tableName, table] of [
    ['default price table', defaultTable],
    ['price overrides', userOverrides],
  ] as const) {
    const seenInThisTable = new Set<string>();
    for (const price of table) {
      validatePrice(price, tableName);
      const key = priceKey(price.provider, price.modelId);
      if (seenInThisTable.has(key)) throw invalidOption(`${tableName}: ${price.provider}/${price.modelId} is listed twice; which one applies would be a guess`);
      seenInThisTable.add(key);
      prices.set(key, Object.freeze({ ...price }));
    }
  }

  function priceOf(provider: string, modelId: string): ModelPrice | undefined {
    return prices.get(priceKey(provider, modelId)) ?? prices.get(priceKey(provider, ANY_MODEL));
  }

  function costOf(provider: string, modelId: string, usage: Usage): Cost | null {
    const price = priceOf(provider, modelId);
    if (price === undefined) return null;
    // The contract counts cache reads and writes inside inputTokens; clamp in case a backend did not.
    const cachedTokens = Math.min(usage.cachedInputTokens ?? 0, usage.inputTokens);
    const cacheWriteTokens = Math.min(usage.cacheWriteInputTokens ?? 0, usage.inputTokens - cachedTokens);
    const uncachedTokens = usage.inputTokens - cachedTokens - cacheWriteTokens;
    const cachedRate = price.cachedInputUsdPerMillionTokens ?? price.inputUsdPerMillionTokens;
    const cacheWriteRate = price.cacheWriteInputUsdPerMillionTokens ?? price.inputUsdPerMillionTokens;
    const inputUsd = (uncachedTokens * price.inputUsdPerMillionTokens) / TOKENS_PER_MILLION;
    const cachedInputUsd = (cachedTokens * cachedRate) / TOKENS_PER_MILLION;
    const cacheWriteInputUsd = (cacheWriteTokens * cacheWriteRate) / TOKENS_PER_MILLION;
    const outputUsd = (usage.outputTokens * price.outputUsdPerMillionTokens) / TOKENS_PER_MILLION;
    return {
      totalUsd: inputUsd + cachedInputUsd + cacheWriteInputUsd + outputUsd,
      inputUsd,
      cachedInputUsd,
      cacheWriteInputUsd,
      outputUsd,
      estimated: usage.estimated === true,
      price,
    };
  }

  return { priceOf, costOf };
}

function priceKey(provider: string, modelId: string): string {
  return `${provider}\u0000${modelId}`;
}

function validatePrice(price: ModelPrice, tableName: string): void {
  const name = `${tableName}: ${price.provider}/${price.modelId}`;
  if (typeof price.provider !== 'string' || price.provider === '' || typeof price.modelId !== 'string' || price.modelId === '')
    throw invalidOption(`${tableName}: every price needs a provider and a modelId`);
  const rates: [string, number | undefined][] = [
    ['inputUsdPerMillionTokens', price.inputUsdPerMillionTokens],
    ['outputUsdPerMillionTokens', price.outputUsdPerMillionTokens],
    ['cachedInputUsdPerMillionTokens', price.cachedInputUsdPerMillionTokens],
    ['cacheWriteInputUsdPerMillionTokens', price.cacheWriteInputUsdPerMillionTokens],
  ];
  const optionalRates = new Set(['cachedInputUsdPerMillionTokens', 'cacheWriteInputUsdPerMillionTokens']);
  for (const [field, value] of rates) {
    if (value === undefined && optionalRates.has(field)) continue;
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0)
      throw invalidOption(`${name}: ${field} must be a number of at least 0, got ${String(value)}`);
  }
  if (typeof price.source !== 'string' || price.source.trim() === '') throw invalidOption(`${name}: source must say where the price comes from`);
  if (typeof price.asOf !== 'string' || !/^\d{4}-\d{2}-\d{2}/.test(price.asOf) || Number.isNaN(Date.parse(price.asOf)))
    throw invalidOption(`${name}: asOf must be an ISO date (YYYY-MM-DD), got ${String(price.asOf)}`);
}
