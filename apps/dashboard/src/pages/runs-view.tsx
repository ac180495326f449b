import type { RunListEntry, RunsResponse, UnreadableRunListEntry } from '../api/api-types.js';
import type { LiveConnection } from '../api/use-event-source.js';
import { LiveIndicator } from '../components/live-indicator.js';
import { ModelName } from '../components/model-name.js';
import { numberAttributes } from '../components/number-attributes.js';
import { TableRegion } from '../components/table-region.js';
import { formatCost, formatDuration, formatScore } from '../format/format.js';
import { runHref } from '../router/hash-route.js';
import { NumberCell } from '../components/number-cell.js';
import { NumberHeading } from '../components/number-heading.js';

/** The runs under the dashboard's folder: how each stands, what it scored, cost and took. */
export function RunsView({ data, connection }: { data: RunsResponse; connection?: LiveConnection | undefined }) {
  return (
    <>
      <h1>Runs</h1>
      <p>
        Runs under <code data-testid="runs-folder">{data.folder}</code>
      </p>
      {connection === undefined ? null : <LiveIndicator connection={connection} />}
      {data.runs.length === 0 ? (
        <p className="notice" data-testid="runs-empty">
          No runs under <code>{data.folder}</code> yet. A run started with <code>skillopt train --out</code> in this folder appears here by itself.
        </p>
      ) : (
        <TableRegion labelledBy="runs-table-caption">
          <table className="data-table">
            <caption id="runs-table-caption" className="visually-hidden">
              Runs
            </caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Status</th>
                <th scope="col">Environment</th>
                <th scope="col">Target model</th>
                <th scope="col">Optimizer model</th>
                <NumberHeading>Validation, initial</NumberHeading>
                <NumberHeading>Validation, best</NumberHeading>
                <NumberHeading>Test, initial</NumberHeading>
                <NumberHeading>Test, best</NumberHeading>
                <NumberHeading>Cost</NumberHeading>
                <NumberHeading>Steps</NumberHeading>
                <NumberHeading>Duration</NumberHeading>
              </tr>
            </thead>
            <tbody>{data.runs.map((run) => (run.kind === 'run' ? <RunRow key={run.name} run={run} /> : <UnreadableRunRow key={run.name} run={run} />))}</tbody>
          </table>
        </TableRegion>
      )}
    </>
  );
}

function RunRow({ run }: { run: RunListEntry }) {
  return (
    <tr data-testid="run-row" data-run-name={run.name}>
      <th scope="row">
        <a href={runHref(run.name)}>{run.name}</a>
      </th>
      <td data-testid="run-status" data-value={run.status}>
        <span className={`status-text status-text-${run.status.replace(' ', '-')}`}>
          {run.stop === null ? run.status : `${run.status}: ${run.stop.reason}`}
        </span>
      </td>
      <td data-testid="run-environment">{run.environment ?? '—'}</td>
      <td data-testid="run-target-model">
        <ModelName model={run.targetModel} simulated={run.simulatedRoles.includes('target')} />
      </td>
      <td data-testid="run-optimizer-model">
        <ModelName model={run.optimizerModel} simulated={run.simulatedRoles.includes('optimizer')} />
      </td>
      <NumberCell testId="run-validation-initial" value={run.validation.initial} format={formatScore} />
      <NumberCell testId="run-validation-best" value={run.validation.best} format={formatScore} />
      <NumberCell testId="run-test-initial" value={run.test?.initial} format={formatScore} />
      <NumberCell testId="run-test-best" value={run.test?.best} format={formatScore} />
      <td className="number cost" {...numberAttributes('run-cost', run.cost.usd)}>
        {formatCost(run.cost.usd, run.cost.unpricedCalls)}
      </td>
      <td className="number" {...numberAttributes('run-steps', run.stepsDone)}>
        {run.stepsDone} / <span {...numberAttributes('run-steps-total', run.stepsTotal)}>{run.stepsTotal ?? '—'}</span>
      </td>
      <td className="number" {...numberAttributes('run-duration', run.durationMs)}>
        {formatDuration(run.durationMs)}
      </td>
    </tr>
  );
}

function UnreadableRunRow({ run }: { run: UnreadableRunListEntry }) {
  return (
    <tr data-testid="run-row" data-run-name={run.name} className="unreadable">
      <th scope="row">{run.name}</th>
      <td data-testid="run-status" data-value="unreadable">
        <span className="status-text status-text-unreadable">unreadable</span>
      </td>
      <td colSpan={10} className="problem" data-testid="run-problem">
        Cannot be read: {run.problem}
      </td>
    </tr>
  );
}
