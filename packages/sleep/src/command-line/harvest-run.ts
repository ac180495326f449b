import path from 'node:path';
import { secretEnvironmentValues } from '@skillopt/contract/secret-redaction';
import { createCheckpointStore } from '../checkpoints/checkpoint-store.js';
import { defaultStateDirectory } from '../checkpoints/state-directory.js';
import type { SourceReport } from '../harvest/harvest-report.js';
import { type Harvest, harvestSessions } from '../harvest/harvest-sessions.js';
import { resolveHarvestWindows } from '../harvest/harvest-window.js';
import { projectScope } from '../harvest/project-scope.js';
import type { SourceLocations } from '../harvest/source-locations.js';
import { parseSourceNames } from '../sources/source-names.js';
import { SESSION_SOURCES, sessionSourcesFor } from '../sources/session-sources.js';
import { sessionEndLogFile } from '../session-end/session-end-record.js';
import type { NightStageListener } from '../night/night-stages.js';

/** What `sleep harvest` is asked, in either front end (the CLI's `skillopt sleep harvest`, the `skillopt-sleep` bin). */
export interface HarvestRunRequest {
  /** `--source` values as given (each may be a comma-separated list); absent: every source. */
  sources?: readonly string[];
  /** `--project` folders; absent: the working directory. */
  projects?: readonly string[];
  allProjects?: boolean | undefined;
  since?: string | undefined;
  lookback?: string | undefined;
  maxSessions?: number | undefined;
  /** Sleep's state folder, where the checkpoints and the session-end log are read; default `$SKILLOPT_SLEEP_HOME`, else ~/.skillopt-sleep. */
  stateDirectory?: string | undefined;
  locations?: Partial<SourceLocations>;
  workingDirectory: string;
  /** Where the default state folder and the sources are found (HOME, SKILLOPT_SLEEP_HOME, CLAUDE_CONFIG_DIR, …); default this process's environment. */
  environment?: Readonly<Record<string, string | undefined>> | undefined;
  /** Stops the reading between sessions. */
  signal?: AbortSignal | undefined;
  /** Told when the harvest starts (the `harvest` stage). */
  onStage?: NightStageListener | undefined;
}

/** The counts `sleep harvest` ends with (its `result` line under --json). */
export interface HarvestRunResult {
  sessions: number;
  tasks: number;
  window: string;
  scope: 'all' | readonly string[];
  limitReached: boolean;
  sources: SourceReport[];
}

export interface HarvestRun {
  harvest: Harvest;
  /** Once `harvest.sessions` has been read to its end: the counts, per source. */
  result(): HarvestRunResult;
}

/** The harvest one `sleep harvest` command runs: its sources, scope and window resolved from the request. */
export async function startHarvestRun(request: HarvestRunRequest): Promise<HarvestRun> {
  const { workingDirectory } = request;
  const requested = request.sources !== undefined;
  const sourceIds = requested ? parseSourceNames(request.sources ?? []) : SESSION_SOURCES.map((source) => source.id);
  const scope = request.allProjects ? projectScope('all') : projectScope((request.projects ?? ['.']).map((folder) => path.resolve(workingDirectory, folder)));
  const stateDirectory =
    request.stateDirectory === undefined ? defaultStateDirectory(request.environment) : path.resolve(workingDirectory, request.stateDirectory);
  const windows = await resolveHarvestWindows({
    since: request.since,
    lookback: request.lookback,
    scope,
    sources: sourceIds,
    checkpoints: createCheckpointStore(stateDirectory),
  });
  const harvest = harvestSessions({
    sources: sessionSourcesFor(sourceIds),
    sourcesRequested: requested,
    scope,
    windowFor: windows.windowFor,
    locations: { sessionEndLog: sessionEndLogFile(stateDirectory), ...request.locations },
    maxSessions: request.maxSessions,
    // Another environment locates the sources; the secrets cut out are still this process's too.
    ...(request.environment === undefined
      ? {}
      : { environment: request.environment, knownSecrets: secretEnvironmentValues({ ...process.env, ...request.environment } as NodeJS.ProcessEnv) }),
    ...(request.signal === undefined ? {} : { signal: request.signal }),
  });
  request.onStage?.({ stage: 'harvest', message: `reading the sessions of ${sourceIds.join(', ')}, ${windows.description}` });
  return {
    harvest,
    result: () => ({
      sessions: harvest.reports.reduce((total, report) => total + report.sessions, 0),
      tasks: harvest.reports.reduce((total, report) => total + report.tasks, 0),
      window: windows.description,
      scope: scope.kind === 'all' ? 'all' : scope.projects,
      limitReached: harvest.limitReached,
      sources: harvest.reports,
    }),
  };
}

/** The warnings a finished harvest reports, one line each: missing sources, corrupt lines (the first of them, then a count). */
export function harvestWarnings(reports: readonly SourceReport[]): string[] {
  const lines: string[] = [];
  for (const report of reports) {
    for (const warning of report.warnings) lines.push(`${warning.message}: ${warning.path}`);
    for (const corrupt of report.corruptLines) lines.push(`${corrupt.file}:${corrupt.line}: ${corrupt.message}; passed over`);
    const unlisted = report.corruptLineCount - report.corruptLines.length;
    if (unlisted > 0) lines.push(`… and ${unlisted} more corrupt line${unlisted === 1 ? '' : 's'} in ${report.source}'s sessions`);
  }
  return lines;
}

/** What a harvest found, in lines for a person: the totals, then per source. */
export function harvestSummary(result: HarvestRunResult): string {
  const lines = [`${result.sessions} sessions (${result.tasks} distinct tasks), ${result.window}.`];
  for (const report of result.sources)
    lines.push(
      `  ${report.source}: ${report.sessions} sessions, ${report.tasks} tasks, ${report.filesRead} files read, ${report.filesSkippedUnopened} not opened`,
    );
  lines.push('Nothing was written and no checkpoint moved.');
  return `${lines.join('\n')}\n`;
}
