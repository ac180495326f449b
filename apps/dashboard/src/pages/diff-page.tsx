import { diffPath, runPath } from '../api/api-paths.js';
import type { RunReport, SkillDiff } from '../api/api-types.js';
import { useApiResource } from '../api/use-api-resource.js';
import { ResourceBoundary } from '../components/resource-boundary.js';
import { DiffView } from './diff-view.js';

/** A skill diff's page: the diff, and the run's skill versions to pick another pair. */
export function DiffPage({ runName, from, to }: { runName: string; from: string; to: string }) {
  const diffResource = useApiResource<SkillDiff>(diffPath(runName, from, to));
  const runResource = useApiResource<RunReport>(runPath(runName));
  return (
    <ResourceBoundary title={`Skill diff ${from} → ${to}`} resource={diffResource}>
      {(diff) => <DiffView runName={runName} diff={diff} skillVersions={runResource.data?.skillVersions} />}
    </ResourceBoundary>
  );
}
