import type { RunReport } from '../api/api-types.js';
import type { LiveConnection } from '../api/use-event-source.js';
import { CallsByRoleTable } from '../components/calls-by-role-table.js';
import { ExclusionsTable } from '../components/exclusions-table.js';
import { RunCharts } from '../components/run-charts.js';
import { RunOverview } from '../components/run-overview.js';
import { RunStatusBanner } from '../components/run-status-banner.js';
import { SkillDiffPicker } from '../components/skill-diff-picker.js';
import { SkillVersionsTable } from '../components/skill-versions-table.js';
import { StageFailuresTable } from '../components/stage-failures-table.js';
import { StepTable } from '../components/step-table.js';

/** A run's page from its report: status, facts, charts, steps, calls, exclusions, failures and skill versions. */
export function RunView({ report, connection }: { report: RunReport; connection?: LiveConnection | undefined }) {
  const { run } = report;
  const versions = report.skillVersions;
  return (
    <>
      <h1>
        Run <span className="run-name">{run.name}</span>
      </h1>
      <RunStatusBanner run={run} connection={connection} />
      {report.skippedEventLines > 0 || Object.keys(report.newerEventTypes).length > 0 ? (
        <p className="notice">
          {report.skippedEventLines} lines of the run's events could not be read
          {Object.keys(report.newerEventTypes).length > 0
            ? `; events of a newer SkillOpt were skipped (${Object.keys(report.newerEventTypes).join(', ')})`
            : ''}
          .
        </p>
      ) : null}
      <section aria-labelledby="run-overview-heading">
        <h2 id="run-overview-heading">Overview</h2>
        <RunOverview report={report} />
      </section>
      {report.steps.length === 0 ? (
        <section aria-labelledby="run-steps-heading">
          <h2 id="run-steps-heading">Steps</h2>
          <p className="notice" data-testid="no-steps">
            No step has finished yet.
          </p>
        </section>
      ) : (
        <>
          <section aria-labelledby="run-charts-heading">
            <h2 id="run-charts-heading">Per step</h2>
            <RunCharts report={report} />
          </section>
          <section aria-labelledby="run-steps-heading">
            <h2 id="run-steps-heading">Steps</h2>
            <StepTable runName={run.name} steps={report.steps} labelledBy="run-steps-heading" />
          </section>
        </>
      )}
      <section aria-labelledby="run-calls-heading">
        <h2 id="run-calls-heading">Calls by role</h2>
        <CallsByRoleTable usage={report.usage} labelledBy="run-calls-heading" />
      </section>
      <section aria-labelledby="run-exclusions-heading">
        <h2 id="run-exclusions-heading">Exclusions</h2>
        <ExclusionsTable exclusions={report.exclusions} labelledBy="run-exclusions-heading" rowTestId="exclusion-row" />
      </section>
      <section aria-labelledby="run-stage-failures-heading">
        <h2 id="run-stage-failures-heading">Stage failures</h2>
        <StageFailuresTable failures={report.stageFailures} labelledBy="run-stage-failures-heading" rowTestId="stage-failure-row" />
      </section>
      <section aria-labelledby="run-versions-heading">
        <h2 id="run-versions-heading">Skill versions</h2>
        {versions.length === 0 ? (
          <p>No skill version has been written yet.</p>
        ) : (
          <>
            <SkillVersionsTable runName={run.name} versions={versions} labelledBy="run-versions-heading" />
            {versions.length > 1 ? (
              <>
                <h3>Compare two versions</h3>
                <SkillDiffPicker runName={run.name} versions={versions} from={versions[0]!.id} to={versions.at(-1)!.id} />
              </>
            ) : null}
          </>
        )}
      </section>
    </>
  );
}
