import type { StepPoint } from '../api/api-types.js';
import { formatCost, formatCount, formatScore } from '../format/format.js';
import { stepHref } from '../router/hash-route.js';
import { numberAttributes } from './number-attributes.js';
import { StepOutcome } from './step-outcome.js';
import { TableRegion } from './table-region.js';
import { NumberCell } from './number-cell.js';
import { NumberHeading } from './number-heading.js';

/** One row per committed step: its outcome, learning rate, the gate's scores, and a link to the step. */
export function StepTable({ runName, steps, labelledBy }: { runName: string; steps: StepPoint[]; labelledBy: string }) {
  return (
    <TableRegion labelledBy={labelledBy}>
      <table className="data-table">
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Epoch</th>
            <th scope="col">Outcome</th>
            <NumberHeading>Learning rate</NumberHeading>
            <NumberHeading>Candidate</NumberHeading>
            <NumberHeading>Incumbent</NumberHeading>
            <NumberHeading>Best</NumberHeading>
            <NumberHeading>Latency slots</NumberHeading>
            <NumberHeading>Cost so far</NumberHeading>
            <NumberHeading>Excluded</NumberHeading>
            <th scope="col">Gate's reason</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((point, index) => {
            const previousSlots = index === 0 ? 0 : (steps[index - 1]?.latencySlots ?? null);
            const stepSlots = point.latencySlots === null || previousSlots === null ? null : point.latencySlots - previousSlots;
            return (
              <tr key={point.step} data-testid="step-row" data-step={point.step}>
                <th scope="row">
                  <a href={stepHref(runName, point.step)}>Step {point.step}</a>
                </th>
                <td {...numberAttributes('step-epoch', point.epoch)}>{point.epoch}</td>
                <td data-testid="step-outcome" data-value={point.outcome}>
                  <StepOutcome outcome={point.outcome} />
                </td>
                <NumberCell testId="step-learning-rate" value={point.learningRate} format={formatCount} />
                <td className="number" {...numberAttributes('step-candidate-score', point.gate?.candidateScore ?? null)}>
                  {formatScore(point.gate?.candidateScore)}
                  {point.gate?.partial ? (
                    <span className="partial" data-testid="step-candidate-partial">
                      {' '}
                      (partial, {point.gate.partial.itemsEvaluated} of {point.gate.partial.itemsTotal} items)
                    </span>
                  ) : null}
                </td>
                <NumberCell testId="step-incumbent-score" value={point.gate?.incumbentScore} format={formatScore} />
                <NumberCell testId="step-best-score" value={point.bestScore} format={formatScore} />
                <td className="number" data-cumulative={JSON.stringify(point.latencySlots)} {...numberAttributes('step-latency-slots', stepSlots)}>
                  {formatCount(stepSlots)}
                </td>
                <NumberCell testId="step-cumulative-cost" value={point.cumulativeCostUsd} format={formatCost} />
                <NumberCell testId="step-excluded-items" value={point.excludedItems} format={formatCount} />
                <td className="reason">{point.gate?.reason ?? '—'}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </TableRegion>
  );
}
