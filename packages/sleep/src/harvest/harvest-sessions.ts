import { redactSecretText, secretEnvironmentValues } from '@skillopt/contract/secret-redaction';
import { feedbackLexicon } from './feedback-signals.js';
import { createSourceReportRecorder, type SourceReport } from './harvest-report.js';
import type { ProjectScope } from './project-scope.js';
import { createSessionBuilder } from './session-builder.js';
import type { HarvestedSession, SourceId } from './session-record.js';
import type { SessionSource, SourceContext } from './session-source.js';
import { defaultSourceLocations, type SourceLocations } from './source-locations.js';
import { DEFAULT_TEXT_LIMITS, type TextLimits } from './text-limits.js';
import { createTimeWindow, type TimeWindowSettings } from './time-window.js';

export interface HarvestOptions {
  /** The sources to read, in this order. */
  sources: readonly SessionSource[];
  /** True when the user named the sources (a missing one is then a warning). */
  sourcesRequested?: boolean;
  scope: ProjectScope;
  /** The window's settings for each source (checkpoints are per source and project). */
  windowFor: (source: SourceId) => Omit<TimeWindowSettings, 'projects'>;
  locations?: Partial<SourceLocations>;
  environment?: Readonly<Record<string, string | undefined>>;
  limits?: Partial<TextLimits>;
  /** At most this many sessions in all; the newest of each source come first. */
  maxSessions?: number | undefined;
  /** Secrets cut out wherever they appear in a harvested text; default: the values of this process's secret-looking environment variables. */
  knownSecrets?: readonly string[];
  signal?: AbortSignal | undefined;
}

export interface Harvest {
  /** The sessions, streamed: each source's newest first, sources in the order given. */
  sessions: AsyncIterable<HarvestedSession>;
  /** One report per source, filled in as `sessions` is read; complete once it has ended. */
  reports: SourceReport[];
  /** Whether `maxSessions` stopped the harvest before every source was read to its end. */
  readonly limitReached: boolean;
}

/**
 * Reads the developer's sessions from every source given, under one set of rules. Nothing is
 * read until `sessions` is iterated, and a consumer that stops early stops the reading.
 */
export function harvestSessions(options: HarvestOptions): Harvest {
  const environment = options.environment ?? process.env;
  const locations = { ...defaultSourceLocations(environment), ...options.locations };
  const limits = { ...DEFAULT_TEXT_LIMITS, ...options.limits };
  const lexicon = feedbackLexicon(environment);
  const knownSecrets = options.knownSecrets ?? secretEnvironmentValues(environment as NodeJS.ProcessEnv);
  const projects = options.scope.kind === 'all' ? 'all' : options.scope.projects;
  const recorders = options.sources.map((source) => createSourceReportRecorder(source.id));
  let limitReached = false;

  async function* sessions(): AsyncGenerator<HarvestedSession> {
    let count = 0;
    for (const [index, source] of options.sources.entries()) {
      const report = recorders[index];
      if (report === undefined) continue;
      const window = createTimeWindow({ ...options.windowFor(source.id), projects });
      const rules = { scope: options.scope, window, limits, lexicon, environment, knownSecrets, report };
      const context: SourceContext = {
        locations,
        environment,
        scope: options.scope,
        window,
        report,
        signal: options.signal,
        newSession: (sessionId, location) => createSessionBuilder(source.id, sessionId, location, rules),
        locationMissing(location) {
          report.looked(location);
          if (options.sourcesRequested === true) report.warning(location, `no ${source.name} sessions here: the folder or file does not exist`);
        },
        locationUnreadable(location, error) {
          report.looked(location);
          const reason = error instanceof Error ? error.message : String(error);
          report.warning(location, `cannot read ${source.name} sessions here: ${redactSecretText(reason, knownSecrets)}`);
        },
      };
      for await (const session of source.read(context)) {
        yield session;
        count += 1;
        if (options.maxSessions !== undefined && count >= options.maxSessions) {
          limitReached = true;
          return;
        }
      }
    }
  }

  return {
    sessions: { [Symbol.asyncIterator]: () => sessions() },
    reports: recorders.map((recorder) => recorder.report),
    get limitReached() {
      return limitReached;
    },
  };
}
