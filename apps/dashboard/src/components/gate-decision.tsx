import type { ReactNode } from 'react';
import type { StepGateReport } from '../api/api-types.js';
import { formatCount, formatScore } from '../format/format.js';
import { ItemFlipsTable } from './item-flips-table.js';
import { numberAttributes } from './number-attributes.js';

/** The gate's decision on a step's candidate: both scores, the strategy and its reason, and the items that flipped. */
export function GateDecision({ gate, diffLink }: { gate: StepGateReport; diffLink: ReactNode }) {
  return (
    <section aria-labelledby="step-gate-heading" data-testid="gate-decision" data-accepted={String(gate.accepted)}>
      <h2 id="step-gate-heading">Gate decision</h2>
      <p className={`decision decision-${gate.accepted ? 'accepted' : 'rejected'}`}>
        <span aria-hidden="true">{gate.accepted ? '✓' : '✗'}</span> The candidate was <strong>{gate.accepted ? 'accepted' : 'rejected'}</strong>
        {gate.action === 'force-accept' ? ' (forced)' : ''}: {gate.reason}
      </p>
      {diffLink}
      <dl className="facts">
        <div>
          <dt>Candidate score</dt>
          <dd {...numberAttributes('gate-candidate-score', gate.candidateScore)}>
            {formatScore(gate.candidateScore)}
            {gate.partial && gate.itemsEvaluated !== null && gate.itemsTotal !== null ? (
              <span className="partial" data-testid="gate-candidate-partial">
                {' '}
                (partial, {gate.itemsEvaluated} of {gate.itemsTotal} items)
              </span>
            ) : null}
          </dd>
        </div>
        <div>
          <dt>Incumbent score</dt>
          <dd {...numberAttributes('gate-incumbent-score', gate.incumbentScore)}>{formatScore(gate.incumbentScore)}</dd>
        </div>
        <div>
          <dt>Strategy</dt>
          <dd data-testid="gate-strategy">{gate.strategy}</dd>
        </div>
        <div>
          <dt>Items evaluated</dt>
          <dd>
            <span {...numberAttributes('gate-items-evaluated', gate.itemsEvaluated)}>{formatCount(gate.itemsEvaluated)}</span> of{' '}
            <span {...numberAttributes('gate-items-total', gate.itemsTotal)}>{formatCount(gate.itemsTotal)}</span>
          </dd>
        </div>
        {gate.unpairedItems > 0 ? (
          <div>
            <dt>Scored on one side only</dt>
            <dd {...numberAttributes('gate-unpaired-items', gate.unpairedItems)}>{formatCount(gate.unpairedItems)}</dd>
          </div>
        ) : null}
        {gate.vetoes.length > 0 ? (
          <div>
            <dt>Vetoes</dt>
            <dd>{gate.vetoes.join('; ')}</dd>
          </div>
        ) : null}
      </dl>
      <h3>
        Improved items (<span {...numberAttributes('gate-improved-count', gate.improved.length)}>{gate.improved.length}</span>)
      </h3>
      <ItemFlipsTable flips={gate.improved} change="improved" caption="Improved items" />
      <h3>
        Regressed items (<span {...numberAttributes('gate-regressed-count', gate.regressed.length)}>{gate.regressed.length}</span>)
      </h3>
      <ItemFlipsTable flips={gate.regressed} change="regressed" caption="Regressed items" />
    </section>
  );
}
