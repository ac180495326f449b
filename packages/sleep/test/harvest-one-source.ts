import { harvestSessions } from '../src/harvest/harvest-sessions';
import type { SourceReport } from '../src/harvest/harvest-report';
import { type ProjectScope, projectScope } from '../src/harvest/project-scope';
import type { HarvestedSession } from '../src/harvest/session-record';
import type { SessionSource } from '../src/harvest/session-source';
import type { SourceLocations } from '../src/harvest/source-locations';

export interface OneSourceHarvest {
  sessions: HarvestedSession[];
  report: SourceReport;
}

export interface OneSourceOptions {
  locations: Partial<SourceLocations>;
  scope?: ProjectScope;
  /** Epoch ms: the explicit start of the window. */
  since?: number;
  /** Whether the harvest asked for this source by name. */
  requested?: boolean;
  environment?: Record<string, string>;
}

/** Every session one source yields, with its report, under a harvest's usual rules. */
export async function harvestOneSource(source: SessionSource, options: OneSourceOptions): Promise<OneSourceHarvest> {
  const harvest = harvestSessions({
    sources: [source],
    sourcesRequested: options.requested ?? false,
    scope: options.scope ?? projectScope('all'),
    windowFor: () => (options.since === undefined ? {} : { explicitStart: options.since }),
    locations: options.locations,
    environment: options.environment ?? {},
  });
  const sessions: HarvestedSession[] = [];
  for await (const session of harvest.sessions) sessions.push(session);
  const report = harvest.reports[0];
  if (report === undefined) throw new Error('the harvest made no report');
  return { sessions, report };
}
