import type { StepGateReport } from '../api/api-types.js';
import { formatScore } from '../format/format.js';
import { numberAttributes } from './number-attributes.js';
import { NumberCell } from './number-cell.js';
import { NumberHeading } from './number-heading.js';

/** Selection items whose score went up or down from the incumbent to the candidate. */
export function ItemFlipsTable({ flips, change, caption }: { flips: StepGateReport['improved']; change: 'improved' | 'regressed'; caption: string }) {
  if (flips.length === 0) return <p>None.</p>;
  return (
    <table className="data-table flips-table">
      <caption className="visually-hidden">{caption}</caption>
      <thead>
        <tr>
          <th scope="col">Item</th>
          <NumberHeading>Incumbent</NumberHeading>
          <NumberHeading>Candidate</NumberHeading>
        </tr>
      </thead>
      <tbody>
        {flips.map((flip) => (
          <tr key={flip.itemId} data-testid="flipped-item" data-change={change} data-item-id={flip.itemId}>
            <th scope="row">{flip.itemId}</th>
            <NumberCell testId="flipped-incumbent" value={flip.incumbent} format={formatScore} />
            <td className="number" {...numberAttributes('flipped-candidate', flip.candidate)}>
              <span aria-hidden="true">{change === 'improved' ? '▲ ' : '▼ '}</span>
              {formatScore(flip.candidate)}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
