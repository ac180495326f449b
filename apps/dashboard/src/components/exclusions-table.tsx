import type { ExcludedRollout } from '../api/api-types.js';
import { numberAttributes } from './number-attributes.js';
import { TableRegion } from './table-region.js';
import { NumberHeading } from './number-heading.js';

/** Rollouts excluded after their retries (an infrastructure failure, never a score). */
export function ExclusionsTable({ exclusions, labelledBy, rowTestId }: { exclusions: ExcludedRollout[]; labelledBy: string; rowTestId: string }) {
  if (exclusions.length === 0) return <p>No rollout was excluded.</p>;
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Item</th>
            <th scope="col">Phase</th>
            <NumberHeading>Step</NumberHeading>
            <th scope="col">Error code</th>
            <th scope="col">Message</th>
          </tr>
        </thead>
        <tbody>
          {exclusions.map((exclusion, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the same item can be excluded twice (one per sample); its place tells them apart.
            <tr key={`${exclusion.phase}-${exclusion.itemId}-${index}`} data-testid={rowTestId} data-item-id={exclusion.itemId}>
              <th scope="row">{exclusion.itemId}</th>
              <td>{exclusion.phase}</td>
              <td className="number" {...numberAttributes('exclusion-step', exclusion.step)}>
                {exclusion.step ?? '—'}
              </td>
              <td>
                <code>{exclusion.code}</code>
              </td>
              <td>{exclusion.message ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableRegion>
  );
}
