import type { SourceReportRecorder } from './harvest-report.js';
import type { ProjectScope } from './project-scope.js';
import type { SessionBuilder } from './session-builder.js';
import type { HarvestedSession, SourceId } from './session-record.js';
import type { SourceLocations } from './source-locations.js';
import type { TimeWindow } from './time-window.js';

/** What a source reader is given for one harvest. */
export interface SourceContext {
  readonly locations: SourceLocations;
  readonly environment: Readonly<Record<string, string | undefined>>;
  readonly scope: ProjectScope;
  readonly window: TimeWindow;
  readonly report: SourceReportRecorder;
  readonly signal?: AbortSignal | undefined;
  /** A builder for one session, under this harvest's rules (redaction, filters, scope, window). */
  newSession(sessionId: string, location: string): SessionBuilder;
  /**
   * A location of this source does not exist: a warning naming it when the harvest asked for this
   * source by name, a quiet absence (listed in the report) when it read every source.
   */
  locationMissing(location: string): void;
  /** A location exists but cannot be read (permissions, a locked or broken database): always a warning. */
  locationUnreadable(location: string, error: unknown): void;
}

/**
 * One agent tool's sessions. A reader yields records newest first, as it reads them, and counts
 * what it found and passed over in `context.report`. It never writes anywhere, never follows the
 * network, and never keeps a whole file in memory.
 */
export interface SessionSource {
  readonly id: SourceId;
  /** The tool's name as a person says it ("Claude Code"). */
  readonly name: string;
  read(context: SourceContext): AsyncIterable<HarvestedSession>;
}
