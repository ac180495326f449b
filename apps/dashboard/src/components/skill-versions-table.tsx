import type { SkillVersionSummary } from '../api/api-types.js';
import { formatCount, formatScore } from '../format/format.js';
import { diffHref } from '../router/hash-route.js';
import { TableRegion } from './table-region.js';
import { NumberCell } from './number-cell.js';
import { NumberHeading } from './number-heading.js';

/** The versions the run's skill went through, oldest first, each with a link to its diff against the one before. */
export function SkillVersionsTable({ runName, versions, labelledBy }: { runName: string; versions: SkillVersionSummary[]; labelledBy: string }) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">What made it</th>
            <NumberHeading>Characters</NumberHeading>
            <NumberHeading>Lines</NumberHeading>
            <NumberHeading>Candidate</NumberHeading>
            <NumberHeading>Incumbent</NumberHeading>
            <th scope="col">Changes</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((version, index) => {
            const previous = versions[index - 1];
            return (
              <tr key={version.id} data-testid="skill-version-row" data-version-id={version.id}>
                <th scope="row">
                  <code>{version.id}</code>
                </th>
                <td>{version.label}</td>
                <NumberCell testId="version-characters" value={version.characters} format={formatCount} />
                <NumberCell testId="version-lines" value={version.lines} format={formatCount} />
                <NumberCell testId="version-candidate-score" value={version.gate?.candidateScore} format={formatScore} />
                <NumberCell testId="version-incumbent-score" value={version.gate?.incumbentScore} format={formatScore} />
                <td>
                  {previous === undefined ? (
                    '—'
                  ) : (
                    <a href={diffHref(runName, previous.id, version.id)}>
                      diff against <code>{previous.id}</code>
                    </a>
                  )}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
