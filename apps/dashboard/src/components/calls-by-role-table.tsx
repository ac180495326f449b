import type { RunReport } from '../api/api-types.js';
import { formatCost, formatCount } from '../format/format.js';
import { numberAttributes } from './number-attributes.js';
import { TableRegion } from './table-region.js';
import { NumberHeading } from './number-heading.js';

type Usage = RunReport['usage']['overall'];

/** The ledger's calls, tokens and cost by the role that made them (target, optimizer, …), with the run's total. */
export function CallsByRoleTable({ usage, labelledBy }: { usage: RunReport['usage']; labelledBy: string }) {
  const roles = Object.entries(usage.byRole).sort(([a], [b]) => a.localeCompare(b));
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Role</th>
            <NumberHeading>Calls</NumberHeading>
            <NumberHeading>Cache hits</NumberHeading>
            <NumberHeading>Tokens in</NumberHeading>
            <NumberHeading>Tokens out</NumberHeading>
            <NumberHeading>Cost</NumberHeading>
          </tr>
        </thead>
        <tbody>
          {roles.map(([role, totals]) => (
            <tr key={role} data-testid="role-row" data-role={role}>
              <th scope="row">{role}</th>
              <UsageCells totals={totals} testIdPrefix="role" />
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr data-testid="role-total-row">
            <th scope="row">all roles</th>
            <UsageCells totals={usage.overall} testIdPrefix="role-total" />
          </tr>
        </tfoot>
      </table>
    </TableRegion>
  );
}

/** The cells of one row; the total row's test ids differ (`role-total-calls`), so a role's cells are told from the sum's. */
function UsageCells({ totals, testIdPrefix }: { totals: Usage; testIdPrefix: 'role' | 'role-total' }) {
  return (
    <>
      <td className="number" {...numberAttributes(`${testIdPrefix}-calls`, totals.calls)}>
        {formatCount(totals.calls)}
      </td>
      <td className="number" {...numberAttributes(`${testIdPrefix}-cache-hits`, totals.cacheHits)}>
        {formatCount(totals.cacheHits)}
      </td>
      <td className="number" {...numberAttributes(`${testIdPrefix}-input-tokens`, totals.inputTokens)}>
        {formatCount(totals.inputTokens)}
      </td>
      <td className="number" {...numberAttributes(`${testIdPrefix}-output-tokens`, totals.outputTokens)}>
        {formatCount(totals.outputTokens)}
      </td>
      <td className="number" {...numberAttributes(`${testIdPrefix}-cost`, totals.costUsd)}>
        {formatCost(totals.costUsd, totals.unpricedCalls)}
      </td>
    </>
  );
}
