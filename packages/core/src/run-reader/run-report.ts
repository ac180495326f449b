import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import type { LedgerEntry } from '../ledger/ledger-entry.js';
import { summariseEntries, type UsageTotals } from '../ledger/usage-totals.js';
import type { StepRecord } from '../run-store/step-record.js';
import { runListEntryOf, runNameIn, type RunListEntry } from './run-listing.js';
import { readRunEvents, readRunHistory, readRunLedger, readRunOverview } from './run-reader.js';
import { readSkillTimeline, type GateSummary, type SkillVersion } from './skill-timeline.js';

/**
 * One run as the dashboard's run page shows it (`GET /api/runs/:name`): its list entry, one point
 * per committed step for the charts, where the money and the calls went, what was excluded or
 * failed, and the skill versions. Everything is derived from the run's own files by the run
 * reader; nothing here is stored.
 */
export interface RunReport {
  run: RunListEntry;
  steps: StepPoint[];
  epochs: EpochPoint[];
  /** From the ledger; calls by role are `byRole[role].calls`. */
  usage: { overall: UsageTotals; byRole: Record<string, UsageTotals>; byPurpose: Record<string, UsageTotals> };
  /** The critical path in latency slots so far: the summary's, else the last step's. */
  latencySlots: number | null;
  /** Once the run finished (the summary keeps them). */
  sequentialWaves: number | null;
  rollouts: { run: number; cacheHits: number; retries: number } | null;
  /** Rollouts excluded after their retries: an infrastructure failure, never a score. */
  exclusions: ExcludedRollout[];
  /** Optimizer stages whose reply was unusable even after a re-ask. */
  stageFailures: StageFailureReport[];
  skillVersions: SkillVersionSummary[];
  /** Lines of events.jsonl that are no readable event, and events of a newer release's types, by type. */
  skippedEventLines: number;
  newerEventTypes: Record<string, number>;
}

/** One committed step, for the run page's charts and step table. */
export interface StepPoint {
  step: number;
  epoch: number;
  stepInEpoch: number;
  outcome: StepRecord['outcome'];
  learningRate: number | null;
  /** The gate's decision, for a step whose candidate was gated. */
  gate: {
    accepted: boolean;
    strategy: string;
    reason: string;
    candidateScore: number;
    incumbentScore: number;
    /** Present when the candidate's score is over part of the selection split (the gate stopped early). */
    partial?: { itemsEvaluated: number; itemsTotal: number };
  } | null;
  /** Validation (gate) scores of the current and the best skill when the step ended. */
  currentScore: number | null;
  bestScore: number | null;
  /** Hard score over the step's scored training items. */
  trainScore: number | null;
  /** Characters of the current skill when the step ended. */
  skillCharacters: number | null;
  /** Cost and calls of the run up to the end of this step, from the ledger. */
  cumulativeCostUsd: number;
  cumulativeCalls: number;
  /** The run's latency slots when the step ended (absent in runs written before steps kept it). */
  latencySlots: number | null;
  /** Rollouts of the step excluded for infrastructure failures. */
  excludedItems: number;
  finishedAt: string | null;
}

export interface EpochPoint {
  epoch: number;
  /** The global step the epoch ended after. */
  lastStep: number;
  bestScore: number;
  finishedAt: string;
}

export interface ExcludedRollout {
  phase: string;
  itemId: string;
  /** The global step it belongs to; null outside a step (baseline, epoch end, test). */
  step: number | null;
  code: string;
  /** The error's message, once the run's summary keeps it. */
  message: string | null;
}

export interface StageFailureReport {
  stage: string;
  prompt: string | null;
  step: number | null;
  epoch: number | null;
  reason: string;
}

/** A skill version without its text (`GET /api/runs/:name/skills/:id` has the text). */
export interface SkillVersionSummary {
  /** The file's name without `.md`: `skill_v0003`, `skill_epoch_02_slow_update`. */
  id: string;
  kind: SkillVersion['kind'];
  step: number;
  epoch: number;
  order: number;
  label: string;
  file: string;
  hash: string;
  characters: number;
  lines: number;
  gate: GateSummary | null;
}

/** Reads a run's report; `folder` is the folder the run is listed in (its name is relative to it). */
export async function readRunReport(directory: string, folder: string = path.dirname(directory)): Promise<RunReport> {
  const events = await readRunEvents(directory);
  const overview = await readRunOverview(directory, events);
  const history = overview.state ? await readRunHistory(directory, overview.state.lastCompletedStep) : [];
  const timeline = overview.state ? await readSkillTimeline(directory, history, overview.state) : [];
  const ledger = await readRunLedger(directory);
  const run = runListEntryOf(runNameIn(folder, directory), overview, events.events, ledger);
  const totals = summariseEntries(ledger);
  const summary = overview.summary;
  const exclusions = excludedRollouts(events.events, summary?.excludedItems ?? []);
  const steps = stepPoints(history, timeline, ledger, events.events, exclusions);
  return {
    run,
    steps,
    epochs: events.events
      .filter((event): event is Extract<RunEvent, { type: 'epoch-finished' }> => event.type === 'epoch-finished')
      .map((event) => ({ epoch: event.epoch, lastStep: lastStepOfEpoch(history, event.epoch), bestScore: event.bestScore, finishedAt: event.timestamp })),
    usage: { overall: totals.overall, byRole: totals.byRole, byPurpose: totals.byPurpose },
    latencySlots: summary?.latencySlots ?? [...steps].reverse().find((point) => point.latencySlots !== null)?.latencySlots ?? null,
    sequentialWaves: summary?.sequentialWaves ?? null,
    rollouts: summary?.rollouts ?? null,
    exclusions,
    stageFailures: events.events
      .filter((event): event is Extract<RunEvent, { type: 'stage-failed' }> => event.type === 'stage-failed')
      .map((event) => ({ stage: event.stage, prompt: event.prompt ?? null, step: event.globalStep ?? null, epoch: event.epoch ?? null, reason: event.reason })),
    skillVersions: timeline.map(summariseVersion),
    skippedEventLines: overview.skippedEventLines,
    newerEventTypes: overview.newerEventTypes,
  };
}

/** The summary of a skill version, as the report lists it. */
export function summariseVersion(version: SkillVersion): SkillVersionSummary {
  return {
    id: path.basename(version.file, '.md'),
    kind: version.kind,
    step: version.step,
    epoch: version.epoch,
    order: version.order,
    label: version.label,
    file: version.file,
    hash: version.hash,
    characters: version.text.length,
    lines: version.text === '' ? 0 : version.text.replace(/\n$/, '').split('\n').length,
    gate: version.gate ?? null,
  };
}

/** The rollouts the events report as excluded, each in the step it happened in, with the summary's message where it has one. */
export function excludedRollouts(
  events: readonly RunEvent[],
  described: ReadonlyArray<{ phase: string; itemId: string; code: string; message: string }>,
): ExcludedRollout[] {
  const messages = new Map(described.map((item) => [`${item.phase}\u0000${item.itemId}`, item.message]));
  const excluded: ExcludedRollout[] = [];
  let step: number | null = null;
  for (const event of events) {
    if (event.type === 'step-started') step = event.globalStep;
    else if (event.type === 'step-finished') step = null;
    else if (event.type === 'item-rolled-out' && event.errorCode !== undefined)
      excluded.push({
        phase: event.phase,
        itemId: event.itemId,
        step,
        code: event.errorCode,
        message: messages.get(`${event.phase}\u0000${event.itemId}`) ?? null,
      });
  }
  return excluded;
}

function stepPoints(
  history: readonly StepRecord[],
  timeline: readonly SkillVersion[],
  ledger: readonly LedgerEntry[],
  events: readonly RunEvent[],
  exclusions: readonly ExcludedRollout[],
): StepPoint[] {
  const spentByStep = cumulativeSpending(ledger);
  const finishedAt = new Map<number, string>();
  for (const event of events) if (event.type === 'step-finished') finishedAt.set(event.globalStep, event.timestamp);
  let spent = { costUsd: 0, calls: 0 };
  return history.map((record) => {
    spent = spentByStep.get(record.step) ?? spent;
    const gated = record.outcome === 'accepted' || record.outcome === 'rejected' ? record.gate : undefined;
    const current = [...timeline].reverse().find((version) => version.order <= record.step * 2);
    const scored = record.trainScores.reduce((sum, batch) => sum + batch.scored, 0);
    return {
      step: record.step,
      epoch: record.epoch,
      stepInEpoch: record.stepInEpoch,
      outcome: record.outcome,
      learningRate: record.outcome === 'nothing-scored' ? null : (record.learningRate ?? null),
      gate: gated
        ? {
            accepted: gated.accepted,
            strategy: gated.strategy,
            reason: gated.reason,
            candidateScore: gated.candidateScore,
            incumbentScore: gated.incumbentScore,
            // Runs written before the marker: a paired early stop shows in the counts alone.
            ...(gated.partial === true || gated.itemsEvaluated < gated.itemsTotal
              ? { partial: { itemsEvaluated: gated.itemsEvaluated, itemsTotal: gated.itemsTotal } }
              : {}),
          }
        : null,
      currentScore: record.currentScore,
      bestScore: record.bestScore,
      trainScore: scored === 0 ? null : record.trainScores.reduce((sum, batch) => sum + batch.hard * batch.scored, 0) / scored,
      skillCharacters: current === undefined ? null : current.text.length,
      cumulativeCostUsd: spent.costUsd,
      cumulativeCalls: spent.calls,
      latencySlots: record.latencySlots ?? null,
      excludedItems: exclusions.filter((item) => item.step === record.step).length,
      finishedAt: finishedAt.get(record.step) ?? null,
    };
  });
}

/**
 * The run's spending up to the end of each step: the running total of the ledger, in call order,
 * at the last call of each step (calls between steps, the baseline's and an epoch end's, count
 * towards the step after them).
 */
function cumulativeSpending(ledger: readonly LedgerEntry[]): Map<number, { costUsd: number; calls: number }> {
  const byStep = new Map<number, { costUsd: number; calls: number }>();
  let costUsd = 0;
  let calls = 0;
  for (const entry of [...ledger].sort((a, b) => a.sequence - b.sequence)) {
    costUsd += entry.costUsd ?? 0;
    if (!entry.cacheHit) calls += 1;
    if (entry.globalStep !== undefined && entry.globalStep > 0) byStep.set(entry.globalStep, { costUsd, calls });
  }
  return byStep;
}

function lastStepOfEpoch(history: readonly StepRecord[], epoch: number): number {
  return [...history].reverse().find((record) => record.epoch === epoch)?.step ?? 0;
}
