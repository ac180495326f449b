import type { ProposalReport } from '../api/api-types.js';
import { EditView } from './edit-view.js';
import { numberAttributes } from './number-attributes.js';

/** One analyst's report: which items it read, its reasoning and the edits it proposed. */
export function ProposalCard({ proposal }: { proposal: ProposalReport }) {
  return (
    <article className="card" data-testid="proposal" data-kind={proposal.kind}>
      <h3>
        {proposal.kind} analyst
        {proposal.minibatchIndex === null ? null : (
          <>
            , minibatch <span {...numberAttributes('proposal-minibatch', proposal.minibatchIndex)}>{proposal.minibatchIndex + 1}</span>
          </>
        )}
      </h3>
      <p>
        Read{' '}
        <span data-testid="proposal-items" data-value={proposal.itemIds.length}>
          {proposal.itemIds.length}
        </span>{' '}
        {proposal.itemIds.length === 1 ? 'item' : 'items'}
        {proposal.itemIds.length === 0 ? '' : ': '}
        {proposal.itemIds.map((itemId, index) => (
          <span key={itemId}>
            {index === 0 ? '' : ', '}
            <code>{itemId}</code>
          </span>
        ))}
      </p>
      {proposal.reasoning === null ? null : <p className="reasoning">{proposal.reasoning}</p>}
      {proposal.edits.length === 0 ? (
        <p>It proposed no edit.</p>
      ) : (
        <ol className="edits">
          {proposal.edits.map((edit, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a proposal's edits have no identity but their place in its list.
            <li key={index} data-testid="proposed-edit">
              <EditView edit={edit} />
            </li>
          ))}
        </ol>
      )}
    </article>
  );
}
