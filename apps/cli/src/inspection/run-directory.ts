import { existsSync, statSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, tolerantSchema, type RunEvent } from '@skillopt/contract';
import {
  historySchema,
  readEventsFile,
  readJsonFileIfExists,
  RUN_FILES,
  runtimeStateSchema,
  stepRecordSchema,
  type RunSummary,
  type RuntimeState,
  type StepRecord,
} from '@skillopt/core';
import { z } from 'zod';

/**
 * Reading a run directory for `skillopt runs`: only reads, and is lenient where `--resume` is
 * strict (a skill edited by hand is shown, not refused), because inspecting a damaged run is when
 * these commands are needed most. The layout is core's docs/run-directory.md.
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
  test: { initial: number; best: number } | null;
  status: RunStatus;
  /** For a stopped run: why, what the trainer said, and the command that resumes it. */
  stop: { reason: string; message: string; resumeCommand: string } | undefined;
  summary: RunSummary | undefined;
  state: RuntimeState | undefined;
  /** Lines of events.jsonl that were skipped (unknown event types, a torn last line). */
  /** Lines of events.jsonl that are no readable event (a damaged line, a torn last line). */
  skippedEventLines: number;
  /** Events written by a newer SkillOpt, of types this release does not know: skipped, counted by type. */
  newerEventTypes: Record<string, number>;
}

const summarySchema = z.looseObject({ runId: z.string() });
const configSchema = z.looseObject({ env: z.looseObject({ name: z.string().optional() }).optional() });

/** Whether a directory holds a run: runtime_state.json (committed) or config.json (started). */
export function isRunDirectory(directory: string): boolean {
  return existsSync(path.join(directory, RUN_FILES.runtimeState)) || existsSync(path.join(directory, RUN_FILES.config));
}

/** The absolute run directory, or a user error that says why it is not one. */
export function requireRunDirectory(directory: string, workingDirectory: string): string {
  const absolute = path.resolve(workingDirectory, directory);
  let isDirectory = false;
  try {
    isDirectory = statSync(absolute).isDirectory();
  } catch {
    throw notARun(`${directory} does not exist`);
  }
  if (!isDirectory) throw notARun(`${directory} is not a directory`);
  if (!isRunDirectory(absolute))
    throw notARun(
      `${directory} is not a run directory: it holds neither ${RUN_FILES.runtimeState} nor ${RUN_FILES.config}. Run directories are what \`skillopt train\` writes; \`skillopt runs list\` lists those under outputs/`,
    );
  return absolute;
}

function notARun(message: string): SkillOptError {
  return new SkillOptError({ code: ERROR_CODES.dataInvalid, category: 'user', message });
}

/** Everything `runs list` and `runs show` say about a run, from its files. */
export async function readRunOverview(directory: string): Promise<RunOverview> {
  const state = await readJsonFileIfExists(path.join(directory, RUN_FILES.runtimeState), tolerantSchema(runtimeStateSchema), { description: 'the run’s resume pointer' });
  const summary = (await readJsonFileIfExists(path.join(directory, RUN_FILES.summary), tolerantSchema(summarySchema), { description: 'the run summary' })) as RunSummary | undefined;
  const config = await readJsonFileIfExists(path.join(directory, RUN_FILES.config), tolerantSchema(configSchema), { description: 'the run configuration' });
  const events = await readEventsFile(path.join(directory, RUN_FILES.events));
  const lifecycle = events.events.filter((event) => event.type === 'run-started' || event.type === 'run-stopped' || event.type === 'run-finished');
  const lastStart = lifecycle.filter((event): event is Extract<RunEvent, { type: 'run-started' }> => event.type === 'run-started').at(-1);
  const last = lifecycle.at(-1);

  let status: RunStatus;
  let stop: RunOverview['stop'];
  if (last?.type === 'run-finished') status = 'finished';
  else if (last?.type === 'run-stopped') {
    status = 'stopped';
    stop = { reason: last.reason, message: last.message, resumeCommand: last.resumeCommand };
  } else if (last?.type === 'run-started') status = 'in progress';
  else status = summary ? 'finished' : state ? 'in progress' : 'not started';

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
    skippedEventLines: events.malformedLines.length + (events.tornFinalLine === undefined ? 0 : 1),
    newerEventTypes: events.unknownEventTypes,
  };
}

/** The committed step records in step order (history.json, else the step folders). */
export async function readRunHistory(directory: string, lastCompletedStep: number): Promise<StepRecord[]> {
  const stored = await readJsonFileIfExists(path.join(directory, RUN_FILES.history), tolerantSchema(historySchema), { description: 'the step history' });
  const records = stored ?? (await readStepRecords(directory));
  return records.filter((record) => record.step <= lastCompletedStep).sort((a, b) => a.step - b.step);
}

async function readStepRecords(directory: string): Promise<StepRecord[]> {
  const records: StepRecord[] = [];
  for (const name of (await listDirectory(path.join(directory, RUN_FILES.stepsDirectory))).filter((entry) => /^step_\d+$/.test(entry)).sort()) {
    const record = await readJsonFileIfExists(path.join(directory, RUN_FILES.stepsDirectory, name, RUN_FILES.stepRecord), tolerantSchema(stepRecordSchema), { description: 'a step record' });
    if (record) records.push(record);
  }
  return records;
}

/** `steps/step_NNNN/<name>` of a step as JSON, or undefined when the step did not write it. */
export async function readStepArtifact(directory: string, step: number, name: string): Promise<Record<string, unknown> | undefined> {
  return readJsonFileIfExists(path.join(directory, RUN_FILES.stepsDirectory, `step_${String(step).padStart(4, '0')}`, name), z.record(z.string(), z.unknown()), {
    description: `an artifact of step ${step}`,
  });
}

/** The run directories directly under a folder (and the folder itself, when it is one), by name. */
export async function findRunDirectories(folder: string): Promise<string[]> {
  const found: string[] = [];
  if (isRunDirectory(folder)) found.push(folder);
  const entries = await readdir(folder, { withFileTypes: true });
  for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const candidate = path.join(folder, entry.name);
    if (isRunDirectory(candidate)) found.push(candidate);
  }
  return found;
}

async function listDirectory(directory: string): Promise<string[]> {
  try {
    return await readdir(directory);
  } catch {
    return [];
  }
}
