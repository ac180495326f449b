import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { SkillOptError } from '@skillopt/contract';
import type { LedgerEntry } from '../ledger/ledger-entry.js';
import { summariseEntries } from '../ledger/usage-totals.js';
import { findRunDirectories } from './run-directory-detection.js';
import { readRunEvents, readRunLedger, readRunOverview, type RunOverview, type RunStatus } from './run-reader.js';

/**
 * One run as a list of runs shows it (the dashboard's runs page, `GET /api/runs`): what ran, how it
 * stands, what it scored, cost and took. Plain JSON, so a browser reads it as it is.
 */
export interface RunListEntry {
  kind: 'run';
  /** The run directory's name in the folder listed (its own name when the folder is the run): the run's id in the dashboard. */
  name: string;
  directory: string;
  runId: string | null;
  status: RunStatus;
  stop: { reason: string; message: string; resumeCommand: string } | null;
  environment: string | null;
  targetModel: string | null;
  optimizerModel: string | null;
  /** The roles a simulated model played (the run's summary says so once it finished). */
  simulatedRoles: string[];
  stepsDone: number;
  stepsTotal: number | null;
  /** Gate scores on the validation (selection) split. */
  validation: { initial: number | null; best: number | null };
  /** Hard test scores, once the run finished with eval_test on. */
  test: { initial: number | null; best: number | null } | null;
  /** From the ledger: every call made so far, also those of a killed session. */
  cost: { usd: number; calls: number; unpricedCalls: number };
  /** The first session's start and the last event, ISO. */
  startedAt: string | null;
  updatedAt: string | null;
  /** The time the run's sessions ran, summed (a session without an end counts up to its last event). */
  durationMs: number | null;
}

/** A directory that holds a run whose files cannot be read: listed with why, so it hides no other run. */
export interface UnreadableRunListEntry {
  kind: 'unreadable';
  name: string;
  directory: string;
  problem: string;
}

/** Reads one run for a list of runs; `name` is what the list calls it. */
export async function readRunListEntry(directory: string, name: string): Promise<RunListEntry> {
  const events = await readRunEvents(directory);
  return runListEntryOf(name, await readRunOverview(directory, events), events.events, await readRunLedger(directory));
}

/** A run's list entry from what was read of it already. */
export function runListEntryOf(name: string, overview: RunOverview, events: readonly RunEvent[], ledger: readonly LedgerEntry[]): RunListEntry {
  const totals = summariseEntries(ledger).overall;
  return {
    ...listFieldsOf(overview, name),
    cost: { usd: totals.costUsd, calls: totals.calls, unpricedCalls: totals.unpricedCalls },
    ...sessionTimes(events),
  };
}

export interface ListRunsOptions {
  /**
   * Reads one run's entry (default readRunListEntry): a reader that polls the folder passes one
   * that answers from a cache while the run's files are unchanged. What it throws lists the run
   * as unreadable.
   */
  readEntry?: (directory: string, name: string) => Promise<RunListEntry>;
}

/** Every run directly under `folder` (and the folder itself when it is one), by name; a damaged one is listed as unreadable. */
export async function listRuns(folder: string, options: ListRunsOptions = {}): Promise<Array<RunListEntry | UnreadableRunListEntry>> {
  const readEntry = options.readEntry ?? readRunListEntry;
  const entries: Array<RunListEntry | UnreadableRunListEntry> = [];
  for (const directory of await findRunDirectories(folder)) {
    const name = runNameIn(folder, directory);
    try {
      entries.push(await readEntry(directory, name));
    } catch (error) {
      entries.push({ kind: 'unreadable', name, directory, problem: describeRunProblem(error, directory) });
    }
  }
  return entries;
}

/** What a list of the runs under `folder` calls the run in `directory`. */
export function runNameIn(folder: string, directory: string): string {
  return path.relative(folder, directory) || path.basename(directory);
}

/** A short reason why a run cannot be read: the damaged file relative to the run and what is wrong with it. */
export function describeRunProblem(error: unknown, directory: string): string {
  if (SkillOptError.isInstance(error) && typeof error.details?.filePath === 'string' && typeof error.details.problem === 'string')
    return `${path.relative(directory, error.details.filePath) || '.'} ${error.details.problem.split('\n')[0] ?? ''}`.trim();
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function listFieldsOf(overview: RunOverview, name: string): Omit<RunListEntry, 'cost' | 'startedAt' | 'updatedAt' | 'durationMs'> {
  return {
    kind: 'run',
    name,
    directory: overview.directory,
    runId: overview.runId ?? null,
    status: overview.status,
    stop: overview.stop ?? null,
    environment: overview.environment ?? null,
    targetModel: overview.targetModel ?? null,
    optimizerModel: overview.optimizerModel ?? null,
    simulatedRoles: overview.summary?.simulatedRoles ?? [],
    stepsDone: overview.stepsDone,
    stepsTotal: overview.stepsTotal ?? null,
    validation: { initial: overview.baselineScore, best: overview.bestScore },
    test: overview.test,
  };
}

/** When the run started, when it last did something, and how long its sessions ran. */
function sessionTimes(events: readonly RunEvent[]): Pick<RunListEntry, 'startedAt' | 'updatedAt' | 'durationMs'> {
  const first = events.find((event) => event.type === 'run-started');
  const last = events.at(-1);
  if (first === undefined || last === undefined) return { startedAt: null, updatedAt: last?.timestamp ?? null, durationMs: null };
  let durationMs = 0;
  let sessionStart: number | undefined;
  let sessionLast = 0;
  for (const event of events) {
    const time = Date.parse(event.timestamp);
    if (event.type === 'run-started') {
      if (sessionStart !== undefined) durationMs += sessionLast - sessionStart;
      sessionStart = time;
    }
    sessionLast = time;
    if ((event.type === 'run-finished' || event.type === 'run-stopped') && sessionStart !== undefined) {
      durationMs += time - sessionStart;
      sessionStart = undefined;
    }
  }
  if (sessionStart !== undefined) durationMs += sessionLast - sessionStart;
  return { startedAt: first.timestamp, updatedAt: last.timestamp, durationMs };
}
