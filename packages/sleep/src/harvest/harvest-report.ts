import type { SourceId } from './session-record.js';

/** Why a session found was not harvested. */
export const SKIP_REASONS = ['outside-window', 'outside-scope', 'own-session', 'background-agent', 'no-prompt', 'malformed', 'over-limit'] as const;
export type SkipReason = (typeof SKIP_REASONS)[number];

export interface CorruptLine {
  file: string;
  line: number;
  message: string;
}

export interface SourceWarning {
  path: string;
  message: string;
}

/** What one source held and what the harvest took from it. */
export interface SourceReport {
  source: SourceId;
  /** The folders or databases it looked in. */
  locations: string[];
  /** Session files (or database rows) found, read, and passed over without opening. */
  filesFound: number;
  filesRead: number;
  filesSkippedUnopened: number;
  /**
   * Session files the session-end log named outside the source's own folders: found there (and
   * counted in `filesFound` too), and named but gone since (a temporary config home removed).
   */
  recordedFilesFound: number;
  recordedFilesGone: number;
  bytesRead: number;
  sessions: number;
  /** Distinct tasks among the harvested sessions (sessions asking the same thing count once). */
  tasks: number;
  skipped: Record<SkipReason, number>;
  /** The first corrupt lines (file and line); `corruptLineCount` counts them all. */
  corruptLines: CorruptLine[];
  corruptLineCount: number;
  warnings: SourceWarning[];
}

const MAX_CORRUPT_LINES_LISTED = 20;

/** The counters a source reader fills in as it reads. */
export interface SourceReportRecorder {
  readonly report: SourceReport;
  looked(location: string): void;
  fileFound(): void;
  fileSkippedUnopened(reason: 'outside-window' | 'outside-scope'): void;
  fileRead(bytes: number): void;
  recordedFileFound(): void;
  recordedFileGone(): void;
  bytesRead(bytes: number): void;
  sessionSkipped(reason: SkipReason): void;
  sessionHarvested(task: string): void;
  corruptLine(file: string, line: number, message: string): void;
  warning(path: string, message: string): void;
}

function emptySourceReport(source: SourceId): SourceReport {
  return {
    source,
    locations: [],
    filesFound: 0,
    filesRead: 0,
    filesSkippedUnopened: 0,
    recordedFilesFound: 0,
    recordedFilesGone: 0,
    bytesRead: 0,
    sessions: 0,
    tasks: 0,
    skipped: Object.fromEntries(SKIP_REASONS.map((reason) => [reason, 0])) as Record<SkipReason, number>,
    corruptLines: [],
    corruptLineCount: 0,
    warnings: [],
  };
}

export function createSourceReportRecorder(source: SourceId): SourceReportRecorder {
  const report = emptySourceReport(source);
  const taskKeys = new Set<string>();
  return {
    report,
    looked(location) {
      if (!report.locations.includes(location)) report.locations.push(location);
    },
    fileFound() {
      report.filesFound += 1;
    },
    fileSkippedUnopened(reason) {
      report.filesSkippedUnopened += 1;
      report.skipped[reason] += 1;
    },
    fileRead(bytes) {
      report.filesRead += 1;
      report.bytesRead += bytes;
    },
    recordedFileFound() {
      report.recordedFilesFound += 1;
    },
    recordedFileGone() {
      report.recordedFilesGone += 1;
    },
    bytesRead(bytes) {
      report.bytesRead += bytes;
    },
    sessionSkipped(reason) {
      report.skipped[reason] += 1;
    },
    sessionHarvested(task) {
      report.sessions += 1;
      const key = task.toLowerCase().replace(/\s+/g, ' ').trim();
      if (!taskKeys.has(key)) {
        taskKeys.add(key);
        report.tasks = taskKeys.size;
      }
    },
    corruptLine(file, line, message) {
      report.corruptLineCount += 1;
      if (report.corruptLines.length < MAX_CORRUPT_LINES_LISTED) report.corruptLines.push({ file, line, message });
    },
    warning(path, message) {
      report.warnings.push({ path, message });
    },
  };
}
