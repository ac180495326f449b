import { legendGlyph, type ChartSeries } from './chart-series.js';
import { numberAttributes } from './number-attributes.js';
import { UplotCanvas } from './uplot-canvas.js';

export interface StepChartProps {
  testId: string;
  title: string;
  /** The chart's numbers in one sentence: the picture's text alternative. */
  description: string;
  steps: number[];
  series: ChartSeries[];
  formatValue: (value: number | null) => string;
  valueRange?: [number, number];
}

/** A chart over the run's steps with its legend, and its numbers as a table for whoever cannot see the picture. */
export function StepChart({ testId, title, description, steps, series, formatValue, valueRange }: StepChartProps) {
  return (
    <figure className="chart" data-testid={testId}>
      <figcaption>
        <h3 className="chart-title">{title}</h3>
      </figcaption>
      <UplotCanvas description={description} steps={steps} series={series} formatValue={formatValue} valueRange={valueRange} />
      <ul className="chart-legend">
        {series.map((entry) => (
          <li key={entry.label}>
            <span className="legend-glyph" style={{ color: entry.color }} aria-hidden="true">
              {legendGlyph(entry.style)}
            </span>{' '}
            {entry.label}
          </li>
        ))}
      </ul>
      <details className="chart-numbers">
        <summary>Numbers of this chart</summary>
        <table className="data-table">
          <caption className="visually-hidden">{title}</caption>
          <thead>
            <tr>
              <th scope="col">Step</th>
              {series.map((entry) => (
                <th scope="col" key={entry.label}>
                  {entry.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {steps.map((step, index) => (
              <tr key={step}>
                <th scope="row">{step}</th>
                {series.map((entry) => (
                  <td key={entry.label} className="number" data-series={entry.label} {...numberAttributes('chart-value', entry.values[index] ?? null)}>
                    {formatValue(entry.values[index] ?? null)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </details>
    </figure>
  );
}
