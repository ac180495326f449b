import { runPath, stepPath } from '../api/api-paths.js';
import type { RunReport, StepReport } from '../api/api-types.js';
import { useApiResource } from '../api/use-api-resource.js';
import { ResourceBoundary } from '../components/resource-boundary.js';
import { StepView } from './step-view.js';

/** A step's page: the step's report, and the run's for its skill versions and step count. */
export function StepPage({ runName, step }: { runName: string; step: number }) {
  const stepResource = useApiResource<StepReport>(stepPath(runName, step));
  const runResource = useApiResource<RunReport>(runPath(runName));
  return (
    <ResourceBoundary title={`Step ${step} of run ${runName}`} resource={stepResource}>
      {(report) => <StepView runName={runName} report={report} stepsDone={runResource.data?.run.stepsDone} skillVersions={runResource.data?.skillVersions} />}
    </ResourceBoundary>
  );
}
