import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, tolerantSchema, type RunEvent } from '@skillopt/contract';
import { z } from 'zod';
import { readEventsFile, type EventsFileContent } from '../events/events-file.js';
import { ledgerEntrySchema, type LedgerEntry } from '../ledger/ledger-entry.js';
import { readLedgerFile } from '../ledger/ledger-file.js';
import { lastRecordPerStep, readStepRecordFiles } from '../run-store/load-run-state.js';
import { readJsonFileIfExists } from '../run-store/read-json-file.js';
import { readJsonLinesFile } from '../run-store/json-lines-file.js';
import { FORMAT_1_RUN_FILES, RUN_FILES, checkedRelativePath, stepDirectoryPath } from '../run-store/run-directory-layout.js';
import {
  epochEndMarkerSchema,
  runtimeStateSchema,
  selectionScoresSchema,
  type BestSkillState,
  type EpochEndMarker,
  type SelectionScores,
  type SkillState,
} from '../run-store/runtime-state.js';
import { stepRecordSchema, type StepRecord } from '../run-store/step-record.js';
import { readSessionLiveness } from './run-liveness.js';
import type { RunSummary } from '../training/run-summary.js';

/**
 * The read-only run reader, for `skillopt runs`, the dashboard and Sleep: lenient where the run
 * store's resume is strict (a skill edited by hand is shown, not refused; fields and event types
 * of a newer release are kept or skipped, not errors), because inspecting a damaged or newer run
 * is when it is needed most. It reads both run-directory formats (docs/run-directory.md): format 2
 * with its append-only history.jsonl and ledger.jsonl, and format 1 (SkillOpt 0.1) with
 * history.json and ledger.json.
 */

export type RunStatus = 'finished' | 'stopped' | 'in progress' | 'not started';

export interface RunOverview {
  /** Absolute. */
  directory: string;
  runId: string | undefined;
  environment: string | undefined;
  targetModel: string | undefined;
  optimizerModel: string | undefined;
  stepsDone: number;
  /** Epochs × steps per epoch, when the run said (summary.json or its run-started event). */
  stepsTotal: number | undefined;
  /** Gate scores on the validation (selection) split. */
  baselineScore: number | null;
  bestScore: number | null;
  bestOrigin: string | undefined;
  /** Hard test scores of the initial and the best skill, once the run finished with eval_test. */
  test: { initial: number | null; best: number | null } | null;
  status: RunStatus;
  /**
   * For a stopped run: why (a run-stopped event's reason, or `killed` when its session ended
   * without one), what the trainer said, and the command that resumes it.
   */
  stop: { reason: string; message: string; resumeCommand: string } | undefined;
  summary: RunSummary | undefined;
  state: RunStateView | undefined;
  /** The run-directory format (runtime_state.json's formatVersion), when something was committed. */
  format: number | undefined;
  /** Lines of events.jsonl that are no readable event (a damaged line, a torn last line). */
  skippedEventLines: number;
  /** Events written by a newer SkillOpt, of types this release does not know: skipped, counted by type. */
  newerEventTypes: Record<string, number>;
}

const summarySchema = z.looseObject({ runId: z.string() });
const configSchema = z.looseObject({ env: z.looseObject({ name: z.string().optional() }).optional() });

/**
 * What a reader learns from runtime_state.json, the same for every format: format 2 keeps the
 * trainer's part under `trainer`, format 1 kept its baseline and epoch-end markers beside the
 * store's fields.
 */
export interface RunStateView {
  formatVersion: number;
  runId: string;
  lastCompletedStep: number;
  epoch: number;
  stepInEpoch: number;
  current: SkillState;
  best: BestSkillState;
  /** The initial skill's selection scores, when they were committed. */
  baseline: SelectionScores | null;
  completedEpochEndStages: EpochEndMarker[];
  finished: boolean;
}

const storePart = runtimeStateSchema(z.unknown()).shape;
const runtimeStateReader = tolerantSchema(
  z.object({
    formatVersion: z.int().positive(),
    runId: storePart.runId,
    lastCompletedStep: storePart.lastCompletedStep,
    epoch: storePart.epoch,
    stepInEpoch: storePart.stepInEpoch,
    current: storePart.current,
    best: storePart.best,
    finished: z.boolean().optional(),
    trainer: z
      .object({ initial: z.object({ scores: selectionScoresSchema }).optional(), completedEpochEndStages: z.array(epochEndMarkerSchema).optional() })
      .optional(),
    baseline: selectionScoresSchema.nullable().optional(),
    completedEpochEndStages: z.array(epochEndMarkerSchema).optional(),
  }),
);

/** runtime_state.json of any format as a RunStateView, or undefined when nothing was committed. */
export async function readRunState(directory: string): Promise<RunStateView | undefined> {
  const stored = await readJsonFileIfExists(path.join(directory, RUN_FILES.runtimeState), runtimeStateReader, { description: 'the run’s resume pointer' });
  if (stored === undefined) return undefined;
  return {
    formatVersion: stored.formatVersion,
    runId: stored.runId,
    lastCompletedStep: stored.lastCompletedStep,
    epoch: stored.epoch,
    stepInEpoch: stored.stepInEpoch,
    current: stored.current,
    best: stored.best,
    baseline: stored.trainer?.initial?.scores ?? stored.baseline ?? null,
    completedEpochEndStages: stored.trainer?.completedEpochEndStages ?? stored.completedEpochEndStages ?? [],
    finished: stored.finished ?? false,
  };
}

/** Everything `runs list` and `runs show` say about a run, from its files (its events, when the caller read them already). */
export async function readRunOverview(directory: string, events?: EventsFileContent): Promise<RunOverview> {
  const state = await readRunState(directory);
  const summary = (await readJsonFileIfExists(path.join(directory, RUN_FILES.summary), tolerantSchema(summarySchema), { description: 'the run summary' })) as
    | RunSummary
    | undefined;
  const config = await readJsonFileIfExists(path.join(directory, RUN_FILES.config), tolerantSchema(configSchema), { description: 'the run configuration' });
  events ??= await readRunEvents(directory);
  const lifecycle = events.events.filter((event) => event.type === 'run-started' || event.type === 'run-stopped' || event.type === 'run-finished');
  const lastStart = lifecycle.filter((event): event is Extract<RunEvent, { type: 'run-started' }> => event.type === 'run-started').at(-1);
  const last = lifecycle.at(-1);

  let status: RunStatus;
  let stop: RunOverview['stop'];
  if (last?.type === 'run-finished') status = 'finished';
  else if (last?.type === 'run-stopped') {
    status = 'stopped';
    stop = { reason: last.reason, message: last.message, resumeCommand: last.resumeCommand };
  } else if (last?.type === 'run-started') {
    const session = await readSessionLiveness(directory);
    if (session.alive) status = 'in progress';
    else {
      // Killed outright: nothing recorded the stop, so say it here, with the same resume as any stop.
      status = 'stopped';
      stop = {
        reason: 'killed',
        message: `the session started at ${last.timestamp} ended without recording a stop (${session.why === 'no lock' ? 'it left no lock' : `its process ${session.pid} no longer runs`}): it was killed or crashed`,
        resumeCommand: `skillopt train --resume ${directory}`,
      };
    }
  } else status = summary ? 'finished' : state ? 'in progress' : 'not started';

  const stepsTotal = summary ? summary.epochs * summary.stepsPerEpoch : lastStart ? lastStart.epochs * lastStart.stepsPerEpoch : undefined;
  return {
    directory,
    runId: state?.runId ?? summary?.runId ?? lastStart?.runId,
    environment: summary?.environmentId ?? lastStart?.environmentId ?? config?.env?.name,
    targetModel: summary?.targetModel ?? lastStart?.targetModel,
    optimizerModel: summary?.optimizerModel ?? lastStart?.optimizerModel,
    stepsDone: state?.lastCompletedStep ?? 0,
    stepsTotal,
    baselineScore: state?.baseline?.score ?? summary?.baseline?.score ?? null,
    bestScore: state?.best.score ?? summary?.best?.score ?? null,
    bestOrigin: state?.best.origin ?? summary?.best?.origin,
    test: summary?.test ? { initial: summary.test.initial.hard, best: summary.test.best.hard } : null,
    status,
    stop,
    summary,
    state,
    format: state?.formatVersion,
    skippedEventLines: events.malformedLines.length + (events.tornFinalLine === undefined ? 0 : 1),
    newerEventTypes: events.unknownEventTypes,
  };
}

/**
 * The committed step records in step order: history.jsonl (format 2; the last record of each
 * step), history.json (format 1), else the steps' own step_record.json files.
 */
export async function readRunHistory(directory: string, lastCompletedStep: number): Promise<StepRecord[]> {
  const lines = await readJsonLinesFile<StepRecord>(path.join(directory, RUN_FILES.history), {
    accept(value) {
      const parsed = stepRecordReader.safeParse(value);
      return parsed.success ? { ok: true, record: parsed.data } : { ok: false, reason: 'not a step record' };
    },
  });
  let records = lines.records;
  if (records.length === 0) {
    const formatOne = await readJsonFileIfExists(path.join(directory, FORMAT_1_RUN_FILES.history), z.array(stepRecordReader), {
      description: 'the step history',
    });
    records = formatOne ?? (await readStepRecordFiles(directory));
  }
  return lastRecordPerStep(records, lastCompletedStep);
}

/** Every model call of the run: ledger.jsonl (format 2, incomplete calls of a killed session included), or ledger.json (format 1). */
export async function readRunLedger(directory: string): Promise<LedgerEntry[]> {
  const formatTwo = await readLedgerFile(path.join(directory, RUN_FILES.ledger));
  if (formatTwo.entries.length > 0) return formatTwo.entries;
  const formatOne = await readJsonFileIfExists(path.join(directory, FORMAT_1_RUN_FILES.ledger), formatOneLedgerReader, {
    description: 'the ledger of model calls',
  });
  return formatOne?.entries ?? [];
}

/** The run's events, read tolerantly (see readEventsFile). */
export function readRunEvents(directory: string): Promise<EventsFileContent> {
  return readEventsFile(path.join(directory, RUN_FILES.events));
}

/** A skill the run stored (`skills/skill_v0003.md`, `best_skill.md`), or undefined when it is not there. */
export async function readRunSkill(directory: string, relativePath: string): Promise<string | undefined> {
  try {
    return await readFile(path.join(directory, ...checkedRelativePath(relativePath, 'skill path').split('/')), 'utf8');
  } catch {
    return undefined;
  }
}

const stepRecordReader = tolerantSchema(stepRecordSchema);
const formatOneLedgerReader = z.looseObject({ entries: z.array(tolerantSchema(ledgerEntrySchema)) });

/** `steps/step_NNNN/<name>` of a step as JSON, or undefined when the step did not write it. */
export async function readStepArtifact(directory: string, step: number, name: string): Promise<Record<string, unknown> | undefined> {
  return readJsonFileIfExists(
    path.join(directory, ...stepDirectoryPath(step).split('/'), ...checkedRelativePath(name).split('/')),
    z.record(z.string(), z.unknown()),
    {
      description: `an artifact of step ${step}`,
    },
  );
}

/**
 * config.json of a run, the configuration a resumed run continues with. A run directory without
 * one, or with one that is not JSON, is a user error that says what to do.
 */
export async function readRunConfig(directory: string): Promise<unknown> {
  const file = path.join(directory, RUN_FILES.config);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${directory} holds no run to resume (no ${RUN_FILES.config} there)`,
    });
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `cannot resume from ${directory}: its ${RUN_FILES.config} is not readable JSON (${error instanceof Error ? error.message : String(error)}); restore it from a backup, or start a new run`,
      cause: error,
    });
  }
}
