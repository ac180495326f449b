import type { LedgerTotals, StepGate } from '@skillopt/core';
import type { ReferenceKind, TaskSplit } from '../tasks/task-record.js';
import type { NightRefusal } from './night-tasks.js';

export const NIGHT_REPORT_FORMAT = 'skillopt.sleep.night.v1';

export interface HardSoftScore {
  hard: number | null;
  soft: number | null;
}

/** One gate decision, as the report shows it: always says whether its scores are partial (a step record says so only when they are). */
export interface NightGateDecision extends Omit<StepGate, 'partial'> {
  /** The gate stopped before it had scored every validation task: its scores cover only those it saw. */
  partial: boolean;
}

/** A budget limit a night spent: what stopped it. */
export interface SpentLimit {
  scope: string;
  limit: string;
  max: number;
  used: number;
  /** The config key that raises it, e.g. budget.total.max_calls. */
  configKey: string;
}

/** What one night did and would stage, for a person (night-report-markdown.ts) and for tools (JSON). */
export interface NightReport {
  format: typeof NIGHT_REPORT_FORMAT;
  dryRun: boolean;
  /** The project's night number (`sleep run`); a dry run has none. */
  night?: number;
  /** The skill document whose learned block the night trained. */
  documentPath: string;
  tasks: {
    total: number;
    replayed: number;
    bySplit: Record<TaskSplit, number>;
    byReferenceKind: Partial<Record<ReferenceKind, number>>;
    unjudgeable: Array<{ id: string; reason: string }>;
    /** Tasks core excluded after their backend kept failing (or their judge did): never scored. */
    excluded: Array<{ phase: string; id: string; code: string; message: string }>;
  };
  /** budget-spent: a limit stopped the night before the gate decided; nothing is staged and the next night starts over. */
  outcome: 'accepted' | 'rejected' | 'refused' | 'budget-spent';
  refusal?: NightRefusal;
  budget?: { spent: SpentLimit[] };
  /** Gate scores (the mixed metric unless configured otherwise) on the validation tasks. */
  validation?: { gateMetric: string; before: HardSoftScore & { score: number | null }; after: HardSoftScore & { score: number | null } };
  /** The current rules on the training tasks, as the step replayed them. */
  train?: HardSoftScore;
  /** The test tasks under the rules before and after: reported, never used to decide. */
  test?: { before: HardSoftScore; after: HardSoftScore; scored: number };
  gateDecisions: NightGateDecision[];
  rules: { before: string[]; after: string[]; added: string[]; removed: string[] };
  /** What a night that is not a dry run would stage; null when nothing changed. */
  wouldStage: { documentPath: string; document: string } | null;
  /** Where `sleep run` staged it for review and adoption. */
  staged?: { directory: string };
  /** Why an accepted proposal was not staged after all (the document changed while the night ran). */
  stagingRefusal?: string;
  /** The core run directory with every replay, the ledger and the events. */
  runDirectory?: string;
  usage?: NightUsage;
}

/** A night's calls, tokens and cost, and its calls by purpose. */
export interface NightUsage {
  calls: number;
  inputTokens: number;
  outputTokens: number;
  costUsd: number;
  /** Calls of models without a price: while above 0, costUsd is a lower bound. */
  unpricedCalls: number;
  byPurpose: Record<string, number>;
}

/** The exit code of a night's command: 1 when it could not be validated or a budget stopped it, else 0 (a rejection is a decision). */
export function nightExitCode(report: Pick<NightReport, 'outcome' | 'stagingRefusal'>): 0 | 1 {
  return report.outcome === 'refused' || report.outcome === 'budget-spent' || report.stagingRefusal !== undefined ? 1 : 0;
}

/** The figures of the ledger's totals a night report shows: calls by purpose (replay, judge, reflect, …). */
export function nightUsage(totals: LedgerTotals): NightUsage {
  const overall = totals.overall;
  const byPurpose: Record<string, number> = {};
  for (const [purpose, purposeTotals] of Object.entries(totals.byPurpose)) byPurpose[purpose] = purposeTotals.calls;
  return {
    calls: overall.calls,
    inputTokens: overall.inputTokens,
    outputTokens: overall.outputTokens,
    costUsd: overall.costUsd,
    unpricedCalls: overall.unpricedCalls,
    byPurpose,
  };
}

/** Several parts' usage as one: a whole night's (its mining and each skill's run). */
export function combinedUsage(parts: ReadonlyArray<NightUsage | undefined>): NightUsage {
  const total: NightUsage = { calls: 0, inputTokens: 0, outputTokens: 0, costUsd: 0, unpricedCalls: 0, byPurpose: {} };
  for (const part of parts) {
    if (part === undefined) continue;
    total.calls += part.calls;
    total.inputTokens += part.inputTokens;
    total.outputTokens += part.outputTokens;
    total.costUsd += part.costUsd;
    total.unpricedCalls += part.unpricedCalls;
    for (const [purpose, calls] of Object.entries(part.byPurpose)) total.byPurpose[purpose] = (total.byPurpose[purpose] ?? 0) + calls;
  }
  return total;
}
