import type { LedgerEntry } from './ledger-entry.js';

/** Sums over a set of ledger entries. */
export interface UsageTotals {
  /** Calls actually made, failed ones included; cache hits are not calls. */
  calls: number;
  failedCalls: number;
  /** Calls a killed session started and never saw finish; their usage is an estimate. */
  incompleteCalls: number;
  /** Calls avoided because a cache had the result. */
  cacheHits: number;
  inputTokens: number;
  /** The part of inputTokens served from a provider's prompt cache. */
  cachedInputTokens: number;
  outputTokens: number;
  /** The part of outputTokens spent reasoning. */
  reasoningTokens: number;
  /** Calls whose usage was estimated from text length (agent CLIs that report none). */
  estimatedUsageCalls: number;
  /** The cost of the calls with a known price. */
  costUsd: number;
  /** Calls of models without a price: while this is above 0, costUsd is a lower bound. */
  unpricedCalls: number;
  latencyMs: number;
}

export interface LedgerTotals {
  overall: UsageTotals;
  byRole: Record<string, UsageTotals>;
  byPurpose: Record<string, UsageTotals>;
  /** role → purpose → totals. */
  byRoleAndPurpose: Record<string, Record<string, UsageTotals>>;
}

export function emptyUsageTotals(): UsageTotals {
  return {
    calls: 0,
    failedCalls: 0,
    incompleteCalls: 0,
    cacheHits: 0,
    inputTokens: 0,
    cachedInputTokens: 0,
    outputTokens: 0,
    reasoningTokens: 0,
    estimatedUsageCalls: 0,
    costUsd: 0,
    unpricedCalls: 0,
    latencyMs: 0,
  };
}

/** Adds one entry to running totals (in place). A cache hit adds only to cacheHits: nothing was spent. */
export function addEntryToTotals(totals: UsageTotals, entry: LedgerEntry): void {
  if (entry.cacheHit) {
    totals.cacheHits++;
    return;
  }
  totals.calls++;
  if (entry.outcome === 'failed') totals.failedCalls++;
  if (entry.outcome === 'incomplete') totals.incompleteCalls++;
  totals.inputTokens += entry.usage.inputTokens;
  totals.cachedInputTokens += entry.usage.cachedInputTokens ?? 0;
  totals.outputTokens += entry.usage.outputTokens;
  totals.reasoningTokens += entry.usage.reasoningTokens ?? 0;
  if (entry.usage.estimated === true) totals.estimatedUsageCalls++;
  if (entry.costUsd === null) totals.unpricedCalls++;
  else totals.costUsd += entry.costUsd;
  totals.latencyMs += entry.latencyMs;
}

/** Totals overall, by role, by purpose and by both. */
export function summariseEntries(entries: readonly LedgerEntry[]): LedgerTotals {
  const summary: LedgerTotals = { overall: emptyUsageTotals(), byRole: {}, byPurpose: {}, byRoleAndPurpose: {} };
  for (const entry of entries) addEntryToSummary(summary, entry);
  return summary;
}

export function addEntryToSummary(summary: LedgerTotals, entry: LedgerEntry): void {
  addEntryToTotals(summary.overall, entry);
  addEntryToTotals((summary.byRole[entry.role] ??= emptyUsageTotals()), entry);
  addEntryToTotals((summary.byPurpose[entry.purpose] ??= emptyUsageTotals()), entry);
  const purposes = (summary.byRoleAndPurpose[entry.role] ??= {});
  addEntryToTotals((purposes[entry.purpose] ??= emptyUsageTotals()), entry);
}

/** A deep copy, so callers cannot change the ledger's running totals. */
export function copyLedgerTotals(summary: LedgerTotals): LedgerTotals {
  return structuredClone(summary);
}
