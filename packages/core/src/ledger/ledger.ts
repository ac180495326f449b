import { tolerantSchema, type CallWarning, type ModelRole, type Usage } from '@skillopt/contract';
import type { CostCalculator } from '@skillopt/backends-kit';
import { z } from 'zod';
import { writeJsonAtomic } from '../run-store/atomic-write.js';
import { readJsonFileIfExists } from '../run-store/read-json-file.js';
import {
  budgetSpentError,
  computeBudgetStatus,
  validateBudgets,
  type BudgetMessageOptions,
  type BudgetScope,
  type BudgetStatus,
  type Budgets,
} from './budget.js';
import { ledgerEntrySchema, normaliseUsage, type LedgerEntry } from './ledger-entry.js';
import { addEntryToSummary, copyLedgerTotals, summariseEntries, type LedgerTotals } from './usage-totals.js';

/** What a caller knows about one call; the ledger adds the sequence, time, cost and step. */
export interface LedgerRecordInput {
  role: ModelRole;
  purpose: string;
  provider: string;
  modelId: string;
  /** Absent for a failed call that reported nothing. */
  usage?: Usage;
  latencyMs: number;
  cacheHit?: boolean;
  outcome?: 'succeeded' | 'failed';
  errorCode?: string;
  warnings?: readonly CallWarning[];
}

/**
 * Every model call of a run, with role, purpose, tokens, cost, latency and cache hits, its totals
 * and the budgets they are held to. One ledger per run; restored from ledger.json on resume so
 * totals and budgets continue where they were.
 */
export interface Ledger {
  record(input: LedgerRecordInput): LedgerEntry;
  entries(): readonly LedgerEntry[];
  totals(): LedgerTotals;
  /** Tags the calls that follow with the global step (undefined between steps). */
  setGlobalStep(step: number | undefined): void;
  budgets(): Budgets;
  /** Replaces the budgets: a resumed run brings the limits of its (possibly raised) config. */
  setBudgets(budgets: Budgets): void;
  /** Every configured limit against the totals; `scopes` narrows it (e.g. one role and `total`). */
  budgetStatus(scopes?: readonly BudgetScope[]): BudgetStatus;
  /** Throws the `budget-spent` error when a limit (of `scopes`, default all) is spent. */
  assertWithinBudget(scopes?: readonly BudgetScope[]): void;
  /** ledger.json's content. */
  toJSON(): LedgerFile;
  /** Writes ledger.json atomically; saves are applied in call order. */
  save(filePath: string): Promise<void>;
}

export interface LedgerOptions {
  /** Prices calls; without one (or for a model it does not know) the cost is null, never guessed. */
  costCalculator?: CostCalculator;
  budgets?: Budgets;
  /** Entries of an earlier session of the same run (see restoreLedger). */
  entries?: readonly LedgerEntry[];
  /** For timestamps; injectable for tests. */
  now?: () => Date;
  budgetMessages?: BudgetMessageOptions;
}

export const LEDGER_FORMAT_VERSION = 1 as const;

export const ledgerFileSchema = z.strictObject({
  formatVersion: z.literal(LEDGER_FORMAT_VERSION),
  entries: z.array(ledgerEntrySchema),
  /** Derived from entries, written for readers (dashboard, `skillopt runs`); recomputed on load. */
  totals: z.unknown().optional(),
});
export type LedgerFile = { formatVersion: typeof LEDGER_FORMAT_VERSION; entries: LedgerEntry[]; totals: LedgerTotals };

export function createLedger(options: LedgerOptions = {}): Ledger {
  const now = options.now ?? (() => new Date());
  const entries: LedgerEntry[] = [...(options.entries ?? [])];
  const summary = summariseEntries(entries);
  let budgets: Budgets = {};
  let globalStep: number | undefined;
  let saveQueue: Promise<void> = Promise.resolve();
  setBudgets(options.budgets ?? {});

  function setBudgets(next: Budgets): void {
    validateBudgets(next);
    budgets = structuredClone(next);
  }

  function costOf(input: LedgerRecordInput, usage: Usage): number | null {
    if (input.cacheHit === true) return 0;
    return options.costCalculator?.costOf(input.provider, input.modelId, usage)?.totalUsd ?? null;
  }

  const ledger: Ledger = {
    record(input) {
      const usage = normaliseUsage(input.usage);
      const entry: LedgerEntry = {
        sequence: (entries.at(-1)?.sequence ?? 0) + 1,
        timestamp: now().toISOString(),
        role: input.role,
        purpose: input.purpose,
        provider: input.provider,
        modelId: input.modelId,
        usage,
        costUsd: costOf(input, usage),
        latencyMs: Number.isFinite(input.latencyMs) && input.latencyMs > 0 ? input.latencyMs : 0,
        cacheHit: input.cacheHit ?? false,
        outcome: input.outcome ?? 'succeeded',
        ...(input.errorCode === undefined ? {} : { errorCode: input.errorCode }),
        ...(globalStep === undefined ? {} : { globalStep }),
        ...(input.warnings === undefined || input.warnings.length === 0 ? {} : { warnings: [...input.warnings] }),
      };
      entries.push(entry);
      addEntryToSummary(summary, entry);
      return entry;
    },
    entries: () => entries,
    totals: () => copyLedgerTotals(summary),
    setGlobalStep(step) {
      globalStep = step;
    },
    budgets: () => structuredClone(budgets),
    setBudgets,
    budgetStatus: (scopes) => computeBudgetStatus(budgets, summary, scopes),
    assertWithinBudget(scopes) {
      const status = computeBudgetStatus(budgets, summary, scopes);
      if (status.spent) throw budgetSpentError(status.spentLimits, options.budgetMessages);
    },
    toJSON: () => ({ formatVersion: LEDGER_FORMAT_VERSION, entries: [...entries], totals: copyLedgerTotals(summary) }),
    save(filePath) {
      // Snapshot now, write in order: a slow earlier save never overwrites a later one.
      const snapshot = ledger.toJSON();
      const result = saveQueue.then(() => writeJsonAtomic(filePath, snapshot));
      saveQueue = result.catch(() => undefined);
      return result;
    },
  };
  return ledger;
}

/**
 * The ledger of a resumed run: the entries in `filePath` (ledger.json) continue, so totals and
 * budgets count what earlier sessions spent. A missing file starts an empty ledger; an unreadable
 * one is a clear error rather than a silently reset budget.
 */
export async function restoreLedger(filePath: string, options: Omit<LedgerOptions, 'entries'> = {}): Promise<Ledger> {
  const file = await readJsonFileIfExists(filePath, tolerantSchema(ledgerFileSchema), {
    description: 'the ledger of model calls',
    remedy:
      'Restore it from a backup, or delete it to resume with an empty ledger (budgets then count only new calls); nothing was changed.',
  });
  return createLedger({ ...options, entries: file?.entries ?? [] });
}
