import type { Edit } from '../api/api-types.js';
import { numberAttributes } from './number-attributes.js';

/** One proposed change to the skill: what it does and where, its text, why, and how many trajectories support it. */
export function EditView({ edit }: { edit: Edit }) {
  return (
    <div className="edit">
      <p className="edit-heading">
        <code className="edit-op" data-testid="edit-op">
          {edit.op}
        </code>
        {edit.target === undefined ? null : (
          <>
            {' '}
            at <q className="edit-target">{edit.target}</q>
          </>
        )}
        <span className="muted">
          {' '}
          · support <span {...numberAttributes('edit-support', edit.support)}>{edit.support}</span>
          {edit.source === undefined ? null : <> · from {edit.source} trajectories</>}
        </span>
      </p>
      {edit.content === undefined ? null : <pre className="edit-content">{edit.content}</pre>}
      {edit.rationale === '' ? null : <p className="edit-rationale">{edit.rationale}</p>}
    </div>
  );
}
