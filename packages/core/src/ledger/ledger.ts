import { ERROR_CODES, SkillOptError, type CallWarning, type ModelRole, type Usage } from '@skillopt/contract';
import type { CostCalculator } from '@skillopt/backends-kit';
import { createJsonLinesAppender } from '../run-store/json-lines-file.js';
import { runFileError } from '../run-store/run-file-error.js';
import {
  budgetSpentError,
  computeBudgetStatus,
  validateBudgets,
  type BudgetMessageOptions,
  type BudgetScope,
  type BudgetStatus,
  type Budgets,
} from './budget.js';
import { normaliseUsage, type LedgerEntry } from './ledger-entry.js';
import { readLedgerFile, type LedgerLine } from './ledger-file.js';
import { addEntryToSummary, copyLedgerTotals, summariseEntries, type LedgerTotals } from './usage-totals.js';

/** What a caller knows about one call; the ledger adds the sequence, time, cost and step. */
export interface LedgerRecordInput {
  role: ModelRole;
  purpose: string;
  provider: string;
  modelId: string;
  /** Absent for a failed call that reported nothing. */
  usage?: Usage | undefined;
  latencyMs: number;
  cacheHit?: boolean;
  outcome?: 'succeeded' | 'failed';
  errorCode?: string;
  warnings?: readonly CallWarning[];
  /** The worker that made the call, for a call made on another machine (a distributed executor's). */
  worker?: string;
}

/** A call about to be made: what the ledger writes before the request leaves the process. */
export interface CallStartInput {
  role: ModelRole;
  purpose: string;
  provider: string;
  modelId: string;
  /** The prompt's tokens estimated from its length: the call's usage if it never finishes. */
  estimatedUsage: Usage;
  /** The worker that makes the call, for a call made on another machine (a distributed executor's). */
  worker?: string;
}

/** A call the ledger has written the start of; finish it exactly once. */
export interface StartedCall {
  readonly sequence: number;
  /** Resolves once the start is in the ledger file (at once for a ledger without a file). */
  readonly written: Promise<void>;
  succeeded(result: { usage: Usage; latencyMs: number; warnings?: readonly CallWarning[] }): LedgerEntry;
  failed(result: { latencyMs: number; errorCode: string; usage?: Usage }): LedgerEntry;
}

/**
 * Every model call of a run, with role, purpose, tokens, cost, latency and cache hits, its totals
 * and the budgets they are held to. One ledger per run, appended to ledger.jsonl as calls happen
 * (see ledger-file.ts) and restored from it on resume, so totals and budgets count every earlier
 * session, a killed one included.
 */
export interface Ledger {
  /** Writes the start of a paid call; the caller awaits `written` before making the call. */
  begin(call: CallStartInput): StartedCall;
  /** Records a whole entry at once: a call a cache answered. */
  record(input: LedgerRecordInput): LedgerEntry;
  /** The finished entries (and those a killed session left incomplete), in sequence order. */
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
  /** Resolves once every line so far is in the ledger file; rejects with the first failed write. */
  flush(): Promise<void>;
  /** Flushes and closes the ledger file; a later record opens it again. */
  close(): Promise<void>;
}

export interface LedgerOptions {
  /** Prices calls; without one (or for a model it does not know) the cost is null, never guessed. */
  costCalculator?: CostCalculator;
  budgets?: Budgets;
  /** ledger.jsonl to append every line to; without one the ledger lives in memory (evaluation only). */
  filePath?: string;
  /** Entries of an earlier session of the same run (see restoreLedger). */
  entries?: readonly LedgerEntry[];
  /** For timestamps; injectable for tests. */
  now?: () => Date;
  budgetMessages?: BudgetMessageOptions;
}

export function createLedger(options: LedgerOptions = {}): Ledger {
  const now = options.now ?? (() => new Date());
  // A wall-time budget counts from here: this session of the run.
  const openedAt = now().getTime();
  const callsInFlight: Partial<Record<ModelRole, number>> = {};
  // Calls in flight count against a call limit: a run checking before every call (stop_mid_step) with several calls at once must not overshoot it.
  const clock = () => ({ wallSeconds: Math.max(0, (now().getTime() - openedAt) / 1000), callsInFlight });
  const appender = options.filePath === undefined ? undefined : createJsonLinesAppender(options.filePath);
  const entries: LedgerEntry[] = (options.entries ?? []).map((entry) =>
    // An incomplete call of a killed session is priced at its estimated usage, so dollar budgets count it.
    entry.outcome === 'incomplete' && entry.costUsd === null ? { ...entry, costUsd: priceOf(entry.provider, entry.modelId, entry.usage) } : entry,
  );
  const summary = summariseEntries(entries);
  let nextSequence = (entries.at(-1)?.sequence ?? 0) + 1;
  let budgets: Budgets = {};
  let globalStep: number | undefined;
  setBudgets(options.budgets ?? {});

  function setBudgets(next: Budgets): void {
    validateBudgets(next);
    budgets = structuredClone(next);
  }

  function priceOf(provider: string, modelId: string, usage: Usage): number | null {
    return options.costCalculator?.costOf(provider, modelId, usage)?.totalUsd ?? null;
  }

  function write(line: LedgerLine): Promise<void> {
    return appender === undefined ? Promise.resolve() : appender.append(line);
  }

  function keep(entry: LedgerEntry): LedgerEntry {
    entries.push(entry);
    addEntryToSummary(summary, entry);
    return entry;
  }

  const latency = (value: number) => (Number.isFinite(value) && value > 0 ? value : 0);
  const warningsOf = (warnings: readonly CallWarning[] | undefined) => (warnings === undefined || warnings.length === 0 ? {} : { warnings: [...warnings] });

  return {
    begin(call) {
      const sequence = nextSequence++;
      callsInFlight[call.role] = (callsInFlight[call.role] ?? 0) + 1;
      const started = {
        sequence,
        timestamp: now().toISOString(),
        role: call.role,
        purpose: call.purpose,
        provider: call.provider,
        modelId: call.modelId,
        ...(globalStep === undefined ? {} : { globalStep }),
        ...(call.worker === undefined ? {} : { worker: call.worker }),
      };
      const written = write({ line: 'call-started', ...started, estimatedUsage: normaliseUsage(call.estimatedUsage) });
      // A failed write surfaces through `written` (awaited before the call) and flush().
      written.catch(() => undefined);
      let finished = false;
      const finish = (
        fields: Pick<LedgerEntry, 'usage' | 'costUsd' | 'latencyMs' | 'outcome'> & Partial<Pick<LedgerEntry, 'errorCode' | 'warnings'>>,
      ): LedgerEntry => {
        if (finished) throw new SkillOptError({ code: ERROR_CODES.internal, category: 'internal', message: `ledger call ${sequence} was finished twice` });
        finished = true;
        callsInFlight[call.role] = (callsInFlight[call.role] ?? 1) - 1;
        write({ line: 'call-finished', sequence, timestamp: now().toISOString(), ...fields }).catch(() => undefined);
        return keep({ ...started, cacheHit: false, ...fields });
      };
      return {
        sequence,
        written,
        succeeded(result) {
          const usage = normaliseUsage(result.usage);
          return finish({
            usage,
            costUsd: priceOf(call.provider, call.modelId, usage),
            latencyMs: latency(result.latencyMs),
            outcome: 'succeeded',
            ...warningsOf(result.warnings),
          });
        },
        failed(result) {
          const usage = normaliseUsage(result.usage);
          return finish({
            usage,
            costUsd: priceOf(call.provider, call.modelId, usage),
            latencyMs: latency(result.latencyMs),
            outcome: 'failed',
            errorCode: result.errorCode,
          });
        },
      };
    },
    record(input) {
      const usage = normaliseUsage(input.usage);
      const entry: LedgerEntry = {
        sequence: nextSequence++,
        timestamp: now().toISOString(),
        role: input.role,
        purpose: input.purpose,
        provider: input.provider,
        modelId: input.modelId,
        usage,
        costUsd: input.cacheHit === true ? 0 : priceOf(input.provider, input.modelId, usage),
        latencyMs: latency(input.latencyMs),
        cacheHit: input.cacheHit ?? false,
        outcome: input.outcome ?? 'succeeded',
        ...(input.errorCode === undefined ? {} : { errorCode: input.errorCode }),
        ...(globalStep === undefined ? {} : { globalStep }),
        ...warningsOf(input.warnings),
        ...(input.worker === undefined ? {} : { worker: input.worker }),
      };
      write({ line: 'call-recorded', ...entry }).catch(() => undefined);
      return keep(entry);
    },
    entries: () => entries,
    totals: () => copyLedgerTotals(summary),
    setGlobalStep(step) {
      globalStep = step;
    },
    budgets: () => structuredClone(budgets),
    setBudgets,
    budgetStatus: (scopes) => computeBudgetStatus(budgets, summary, scopes, clock()),
    assertWithinBudget(scopes) {
      const status = computeBudgetStatus(budgets, summary, scopes, clock());
      if (status.spent) throw budgetSpentError(status.spentLimits, options.budgetMessages);
    },
    flush: () => appender?.flush() ?? Promise.resolve(),
    close: () => appender?.close() ?? Promise.resolve(),
  };
}

/**
 * The ledger of a resumed run: the entries in `filePath` (ledger.jsonl) continue, so totals and
 * budgets count what earlier sessions spent — a call a killed session started counts as an
 * incomplete one — and new lines are appended to the same file. A missing file starts empty.
 */
export async function restoreLedger(filePath: string, options: Omit<LedgerOptions, 'entries' | 'filePath'> = {}): Promise<Ledger> {
  const content = await readLedgerFile(filePath);
  if (content.malformedLines.length > 0)
    throw runFileError({
      filePath,
      problem: `has ${content.malformedLines.length} line(s) that are not ledger lines (the first, line ${content.malformedLines[0]!.lineNumber}: ${content.malformedLines[0]!.reason})`,
      remedy: 'Restore it from a backup; resuming would lose count of calls already paid for. Nothing was changed.',
    });
  return createLedger({ ...options, filePath, entries: content.entries });
}
