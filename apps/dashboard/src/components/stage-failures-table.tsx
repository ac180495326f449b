import type { StageFailureReport } from '../api/api-types.js';
import { numberAttributes } from './number-attributes.js';
import { TableRegion } from './table-region.js';
import { NumberHeading } from './number-heading.js';

/** Optimizer stages whose reply was unusable even after a re-ask. */
export function StageFailuresTable({ failures, labelledBy, rowTestId }: { failures: StageFailureReport[]; labelledBy: string; rowTestId: string }) {
  if (failures.length === 0) return <p>No optimizer stage failed.</p>;
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Stage</th>
            <th scope="col">Prompt</th>
            <NumberHeading>Step</NumberHeading>
            <NumberHeading>Epoch</NumberHeading>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {failures.map((failure, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a stage can fail more than once in a step; its place tells the failures apart.
            <tr key={`${failure.stage}-${failure.step}-${index}`} data-testid={rowTestId} data-stage={failure.stage}>
              <th scope="row">{failure.stage}</th>
              <td>{failure.prompt ?? '—'}</td>
              <td className="number" {...numberAttributes('stage-failure-step', failure.step)}>
                {failure.step ?? '—'}
              </td>
              <td className="number" {...numberAttributes('stage-failure-epoch', failure.epoch)}>
                {failure.epoch ?? '—'}
              </td>
              <td className="reason">{failure.reason}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
