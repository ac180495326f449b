import type { RunReport } from '../api/api-types.js';
import { formatCost, formatCount, formatScore } from '../format/format.js';
import { CHART_COLOURS } from './chart-colours.js';
import { StepChart } from './step-chart.js';

/** The run page's charts: validation score with the gate's decisions, learning rate, skill length and cumulative cost, per step. */
export function RunCharts({ report }: { report: RunReport }) {
  const points = report.steps;
  const steps = points.map((point) => point.step);
  const accepted = points.filter((point) => point.gate?.accepted === true).length;
  const rejected = points.filter((point) => point.gate?.accepted === false).length;
  const last = points.at(-1);
  const learningRates = points.map((point) => point.learningRate).filter((rate): rate is number => rate !== null);
  const formatLearningRate = (value: number | null) => (value === null ? '—' : formatCount(value));
  const formatCharacters = (value: number | null) => formatCount(value);
  const formatDollars = (value: number | null) => formatCost(value);
  return (
    <div className="charts">
      <StepChart
        testId="chart-validation"
        title="Validation score per step"
        description={`Validation score over ${points.length} steps: from ${formatScore(report.run.validation.initial)} initially to ${formatScore(last?.currentScore)} now, best ${formatScore(last?.bestScore)}; the gate accepted ${accepted} candidates (triangles) and rejected ${rejected} (crosses).`}
        steps={steps}
        valueRange={[0, 1]}
        formatValue={formatScore}
        series={[
          { label: 'current skill', style: 'line', color: CHART_COLOURS.current, values: points.map((point) => point.currentScore) },
          { label: 'best skill', style: 'dashed', color: CHART_COLOURS.best, values: points.map((point) => point.bestScore) },
          {
            label: 'accepted candidate',
            style: 'accepted-marker',
            color: CHART_COLOURS.accepted,
            values: points.map((point) => (point.gate?.accepted === true ? point.gate.candidateScore : null)),
          },
          {
            label: 'rejected candidate',
            style: 'rejected-marker',
            color: CHART_COLOURS.rejected,
            values: points.map((point) => (point.gate?.accepted === false ? point.gate.candidateScore : null)),
          },
        ]}
      />
      <StepChart
        testId="chart-learning-rate"
        title="Learning rate per step (edits at most)"
        description={
          learningRates.length === 0
            ? 'No step recorded a learning rate.'
            : `Learning rate over ${points.length} steps: from ${learningRates[0]} to ${learningRates.at(-1)} edits at most.`
        }
        steps={steps}
        formatValue={formatLearningRate}
        series={[{ label: 'learning rate', style: 'stepped', color: CHART_COLOURS.learningRate, values: points.map((point) => point.learningRate) }]}
      />
      <StepChart
        testId="chart-skill-length"
        title="Skill length per step (characters)"
        description={`Skill length over ${points.length} steps: from ${formatCharacters(points[0]?.skillCharacters ?? null)} characters after the first step to ${formatCharacters(last?.skillCharacters ?? null)}.`}
        steps={steps}
        formatValue={formatCharacters}
        series={[{ label: 'characters', style: 'line', color: CHART_COLOURS.skillLength, values: points.map((point) => point.skillCharacters) }]}
      />
      <StepChart
        testId="chart-cost"
        title="Cumulative cost per step"
        description={`Cost of the run up to each of ${points.length} steps: ${formatCost(last?.cumulativeCostUsd)} after step ${last?.step ?? 0}, over ${formatCount(last?.cumulativeCalls ?? 0)} calls.`}
        steps={steps}
        formatValue={formatDollars}
        series={[{ label: 'cost (USD)', style: 'line', color: CHART_COLOURS.cost, values: points.map((point) => point.cumulativeCostUsd) }]}
      />
    </div>
  );
}
