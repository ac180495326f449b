import type { SkillVersionSummary, StepGateReport, StepReport } from '../api/api-types.js';
import { EditView } from '../components/edit-view.js';
import { ExclusionsTable } from '../components/exclusions-table.js';
import { GateDecision } from '../components/gate-decision.js';
import { numberAttributes } from '../components/number-attributes.js';
import { ProposalCard } from '../components/proposal-card.js';
import { StageFailuresTable } from '../components/stage-failures-table.js';
import { StepOutcome } from '../components/step-outcome.js';
import { formatCount, formatScore } from '../format/format.js';
import { diffHref, stepHref } from '../router/hash-route.js';

export interface StepViewProps {
  runName: string;
  report: StepReport;
  /** The run's committed steps, when known: there is no next step after the last. */
  stepsDone?: number | undefined;
  /** The run's skill versions, to find the one an accepted step's version is compared with. */
  skillVersions?: SkillVersionSummary[] | undefined;
}

/** A step's page from its report: what was proposed, selected and applied, and what the gate made of it. */
export function StepView({ runName, report, stepsDone, skillVersions = [] }: StepViewProps) {
  const { record } = report;
  const gate = gateOf(report);
  const acceptedIndex = skillVersions.findIndex((version) => version.id === report.acceptedVersionId);
  const previousVersion = acceptedIndex > 0 ? skillVersions[acceptedIndex - 1] : undefined;
  const learningRate = 'learningRate' in record ? (record.learningRate ?? null) : null;
  const scored = record.trainScores.reduce((sum, batch) => sum + batch.scored, 0);
  const excluded = record.trainScores.reduce((sum, batch) => sum + batch.excluded, 0);
  const trainScore = scored === 0 ? null : record.trainScores.reduce((sum, batch) => sum + batch.hard * batch.scored, 0) / scored;
  const diffLink =
    report.acceptedVersionId === null ? null : (
      <p>
        {previousVersion === undefined ? (
          <>
            This step wrote <code>{report.acceptedVersionId}</code>.
          </>
        ) : (
          <a href={diffHref(runName, previousVersion.id, report.acceptedVersionId)} data-testid="accepted-diff-link">
            See what changed: <code>{previousVersion.id}</code> → <code>{report.acceptedVersionId}</code>
          </a>
        )}
      </p>
    );
  return (
    <>
      <h1 data-testid="step-title" data-step={record.step} data-value={record.step}>
        Step {record.step} of run <span className="run-name">{runName}</span>
      </h1>
      <nav aria-label="Steps" className="step-navigation">
        <ul>
          {record.step > 1 ? (
            <li>
              <a href={stepHref(runName, record.step - 1)} rel="prev">
                <span aria-hidden="true">← </span>Step {record.step - 1}
              </a>
            </li>
          ) : null}
          {stepsDone === undefined || record.step < stepsDone ? (
            <li>
              <a href={stepHref(runName, record.step + 1)} rel="next">
                Step {record.step + 1}
                <span aria-hidden="true"> →</span>
              </a>
            </li>
          ) : null}
        </ul>
      </nav>
      <section aria-labelledby="step-summary-heading">
        <h2 id="step-summary-heading">Outcome</h2>
        <dl className="facts">
          <div>
            <dt>Outcome</dt>
            <dd data-testid="step-outcome" data-value={record.outcome}>
              <StepOutcome outcome={record.outcome} />
            </dd>
          </div>
          <div>
            <dt>Epoch</dt>
            <dd>
              <span {...numberAttributes('step-epoch', record.epoch)}>{record.epoch}</span>, step{' '}
              <span {...numberAttributes('step-in-epoch', record.stepInEpoch)}>{record.stepInEpoch}</span> of the epoch
            </dd>
          </div>
          <div>
            <dt>Learning rate (edits at most)</dt>
            <dd {...numberAttributes('step-learning-rate', learningRate)}>{formatCount(learningRate)}</dd>
          </div>
          <div>
            <dt>Training score</dt>
            <dd>
              <span {...numberAttributes('step-train-score', trainScore)}>{formatScore(trainScore)}</span> on{' '}
              <span {...numberAttributes('step-train-scored', scored)}>{scored}</span> items
              {excluded > 0 ? (
                <>
                  {' '}
                  (<span {...numberAttributes('step-train-excluded', excluded)}>{excluded}</span> excluded)
                </>
              ) : null}
            </dd>
          </div>
          <div>
            <dt>Validation score after the step</dt>
            <dd>
              current <span {...numberAttributes('step-current-score', record.currentScore)}>{formatScore(record.currentScore)}</span>, best{' '}
              <span {...numberAttributes('step-best-score', record.bestScore)}>{formatScore(record.bestScore)}</span>
            </dd>
          </div>
          {'reason' in record ? (
            <div>
              <dt>Why</dt>
              <dd data-testid="step-reason">{record.reason}</dd>
            </div>
          ) : null}
        </dl>
      </section>
      {gate === null ? null : <GateDecision gate={gate} diffLink={diffLink} />}
      <section aria-labelledby="step-proposals-heading">
        <h2 id="step-proposals-heading">Proposed edits</h2>
        {report.proposals.length === 0 ? (
          <p>No analyst report was kept for this step.</p>
        ) : (
          report.proposals.map((proposal, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: reports are identified by their place in the step's reflection.
            <ProposalCard key={index} proposal={proposal} />
          ))
        )}
      </section>
      <section aria-labelledby="step-selection-heading">
        <h2 id="step-selection-heading">Selected edits</h2>
        {report.selection === null ? (
          <p>Nothing was selected in this step.</p>
        ) : (
          <>
            <p>
              Learning rate{' '}
              <span {...numberAttributes('selection-learning-rate', report.selection.learningRate)}>{formatCount(report.selection.learningRate)}</span>;{' '}
              {report.selection.ranked ? 'the edits were ranked to fit it' : 'no ranking was needed'}; {report.selection.edits.length} selected.
            </p>
            {report.selection.reasoning === null ? null : <p className="reasoning">{report.selection.reasoning}</p>}
            <ol className="edits">
              {report.selection.edits.map((edit, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: selected edits are identified by their rank.
                <li key={index} data-testid="selected-edit">
                  <EditView edit={edit} />
                </li>
              ))}
            </ol>
          </>
        )}
      </section>
      <section aria-labelledby="step-applied-heading">
        <h2 id="step-applied-heading">How the edits applied</h2>
        {report.applied === null ? (
          <p>No edit was applied in this step.</p>
        ) : (
          <ol className="edits">
            {report.applied.map((application) => (
              <li key={application.index} data-testid="applied-edit" data-status={application.status}>
                <p>
                  <span className={`application application-${application.status === 'applied' ? 'applied' : 'refused'}`}>
                    <span aria-hidden="true">{application.status === 'applied' ? '✓ ' : '✗ '}</span>
                    {application.status}
                  </span>
                  {application.reason === '' ? null : <>: {application.reason}</>}
                </p>
                <EditView edit={application.edit} />
              </li>
            ))}
          </ol>
        )}
      </section>
      <section aria-labelledby="step-exclusions-heading">
        <h2 id="step-exclusions-heading">Excluded items</h2>
        <ExclusionsTable exclusions={report.exclusions} labelledBy="step-exclusions-heading" rowTestId="step-exclusion" />
      </section>
      <section aria-labelledby="step-stage-failures-heading">
        <h2 id="step-stage-failures-heading">Stage failures</h2>
        <StageFailuresTable failures={report.stageFailures} labelledBy="step-stage-failures-heading" rowTestId="step-stage-failure" />
      </section>
    </>
  );
}

/** The gate's whole evidence when the step kept it, else what its record says (no item flips). */
function gateOf(report: StepReport): StepGateReport | null {
  if (report.gate !== null) return report.gate;
  const { record } = report;
  if (!('gate' in record)) return null;
  const { partial, ...gate } = record.gate;
  return { ...gate, ...(partial === true ? { partial } : {}), improved: [], regressed: [], unpairedItems: 0, vetoes: [] };
}
