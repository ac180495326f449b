import type { SkillDiff, SkillVersionSummary } from '../api/api-types.js';
import { numberAttributes } from '../components/number-attributes.js';
import { SkillDiffPicker } from '../components/skill-diff-picker.js';
import { TableRegion } from '../components/table-region.js';
import { NumberHeading } from '../components/number-heading.js';

const SIGNS = { same: ' ', added: '+', removed: '−' } as const;
const SPOKEN = { same: 'unchanged', added: 'added', removed: 'removed' } as const;

/** Two skill versions line by line: each line with its old and new number, added and removed ones marked by a sign and a colour. */
export function DiffView({ runName, diff, skillVersions }: { runName: string; diff: SkillDiff; skillVersions?: SkillVersionSummary[] | undefined }) {
  return (
    <>
      <h1>
        Skill diff: <code>{diff.from.id}</code> → <code>{diff.to.id}</code>
      </h1>
      <p>
        From {diff.from.label} to {diff.to.label}:{' '}
        <span className="diff-count diff-count-added">
          <span {...numberAttributes('diff-added-count', diff.added)}>{diff.added}</span> {diff.added === 1 ? 'line' : 'lines'} added
        </span>
        ,{' '}
        <span className="diff-count diff-count-removed">
          <span {...numberAttributes('diff-removed-count', diff.removed)}>{diff.removed}</span> removed
        </span>
        .
      </p>
      {skillVersions === undefined || skillVersions.length < 2 ? null : (
        <SkillDiffPicker key={`${diff.from.id}\n${diff.to.id}`} runName={runName} versions={skillVersions} from={diff.from.id} to={diff.to.id} />
      )}
      {diff.added === 0 && diff.removed === 0 ? <p className="notice">The two versions have the same text.</p> : null}
      <TableRegion labelledBy="diff-table-caption">
        <table className="diff-table">
          <caption id="diff-table-caption" className="visually-hidden">
            The lines of {diff.from.id} and {diff.to.id}
          </caption>
          <thead>
            <tr>
              <NumberHeading>Old</NumberHeading>
              <NumberHeading>New</NumberHeading>
              <th scope="col">
                <span className="visually-hidden">Change</span>
              </th>
              <th scope="col">Line</th>
            </tr>
          </thead>
          <tbody>
            {diff.lines.map((line, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: a diff's lines are identified by their place in it.
              <tr key={index} className={`diff-${line.kind}`} data-testid="diff-line" data-kind={line.kind}>
                <td className="number line-number" {...numberAttributes('diff-old-line', line.oldLine)}>
                  {line.oldLine ?? ''}
                </td>
                <td className="number line-number" {...numberAttributes('diff-new-line', line.newLine)}>
                  {line.newLine ?? ''}
                </td>
                <td className="diff-sign">
                  <span aria-hidden="true">{SIGNS[line.kind]}</span>
                  <span className="visually-hidden">{SPOKEN[line.kind]}</span>
                </td>
                <td className="diff-text">{line.text}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableRegion>
    </>
  );
}
