import type { LedgerTotals, StepGate } from '@skillopt/core';
import type { ReferenceKind, TaskSplit } from '../tasks/task-record.js';
import type { NightRefusal } from './night-tasks.js';

export const NIGHT_REPORT_FORMAT = 'skillopt.sleep.night.v1';

export interface HardSoftScore {
  hard: number | null;
  soft: number | null;
}

/** One gate decision, as the report shows it. */
export interface NightGateDecision extends StepGate {
  /** The gate stopped before it had scored every validation task: its scores cover only those it saw. */
  partial: boolean;
}

/** What one night did and would stage, for a person (night-report-markdown.ts) and for tools (JSON). */
export interface NightReport {
  format: typeof NIGHT_REPORT_FORMAT;
  dryRun: boolean;
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
  outcome: 'accepted' | 'rejected' | 'refused';
  refusal?: NightRefusal;
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
  /** The core run directory with every replay, the ledger and the events. */
  runDirectory?: string;
  usage?: {
    calls: number;
    inputTokens: number;
    outputTokens: number;
    costUsd: number;
    /** Calls of models without a price: while above 0, costUsd is a lower bound. */
    unpricedCalls: number;
    byPurpose: Record<string, number>;
  };
}

/** The figures of the ledger's totals a night report shows: calls by purpose (replay, judge, reflect, …). */
export function nightUsage(totals: LedgerTotals): NonNullable<NightReport['usage']> {
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
