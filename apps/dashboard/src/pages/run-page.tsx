import { runEventsPath, runPath } from '../api/api-paths.js';
import type { RunEvent, RunReport } from '../api/api-types.js';
import { useApiResource } from '../api/use-api-resource.js';
import { useEventSource } from '../api/use-event-source.js';
import { useThrottledCallback } from '../api/use-throttled-callback.js';
import { ResourceBoundary } from '../components/resource-boundary.js';
import { RunView } from './run-view.js';

/** The events after which the run's report has something new to show. */
const REPORT_CHANGING_EVENTS: ReadonlySet<RunEvent['type']> = new Set(['step-finished', 'gate-decided', 'epoch-finished', 'run-finished', 'run-stopped']);

/** A run's page: its report, fetched again (at most twice a second) as the run's events arrive. */
export function RunPage({ runName }: { runName: string }) {
  const resource = useApiResource<RunReport>(runPath(runName));
  const reload = useThrottledCallback(resource.reload, 500);
  const connection = useEventSource(runEventsPath(runName), {
    'run-event': (data) => {
      if (REPORT_CHANGING_EVENTS.has(eventType(data) as RunEvent['type'])) reload();
    },
    'run-status': reload,
  });
  return (
    <ResourceBoundary title={`Run ${runName}`} resource={resource}>
      {(report) => <RunView report={report} connection={connection} />}
    </ResourceBoundary>
  );
}

function eventType(data: string): string | undefined {
  try {
    const event = JSON.parse(data) as { type?: unknown };
    return typeof event.type === 'string' ? event.type : undefined;
  } catch {
    return undefined;
  }
}
