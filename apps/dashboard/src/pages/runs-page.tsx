import { runsEventsPath, runsPath } from '../api/api-paths.js';
import type { RunsResponse } from '../api/api-types.js';
import { useApiResource } from '../api/use-api-resource.js';
import { useEventSource } from '../api/use-event-source.js';
import { useThrottledCallback } from '../api/use-throttled-callback.js';
import { ResourceBoundary } from '../components/resource-boundary.js';
import { RunsView } from './runs-view.js';

/** The runs page: the list, fetched again whenever the server says a run appeared, went or changed. */
export function RunsPage() {
  const resource = useApiResource<RunsResponse>(runsPath());
  const reload = useThrottledCallback(resource.reload, 500);
  const connection = useEventSource(runsEventsPath(), { 'runs-changed': reload });
  return (
    <ResourceBoundary title="Runs" resource={resource}>
      {(data) => <RunsView data={data} connection={connection} />}
    </ResourceBoundary>
  );
}
