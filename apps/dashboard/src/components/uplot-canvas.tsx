import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import { drawMarkers } from './chart-markers.js';
import type { ChartSeries } from './chart-series.js';

const HEIGHT = 220;
const AXIS_COLOUR = '#3d434a';
const GRID_COLOUR = '#e3e6ea';
const steppedPaths = uPlot.paths.stepped;
const FONT = '12px system-ui, -apple-system, "Segoe UI", Roboto, sans-serif';

export interface UplotCanvasProps {
  /** What the picture shows, in words (its text alternative). */
  description: string;
  steps: number[];
  series: ChartSeries[];
  formatValue: (value: number) => string;
  /** The value axis' range; else from 0 to a little above the largest value. */
  valueRange?: [number, number] | undefined;
}

/** The uPlot drawing of a chart. It is drawn in the browser only; on the server it is an empty, labelled box. */
export function UplotCanvas({ description, steps, series, formatValue, valueRange }: UplotCanvasProps) {
  const container = useRef<HTMLDivElement>(null);
  const latestFormat = useRef(formatValue);
  useEffect(() => {
    latestFormat.current = formatValue;
  });
  const dataKey = JSON.stringify({ steps, series, valueRange });
  useEffect(() => {
    const target = container.current;
    if (target === null) return;
    const { steps, series, valueRange } = JSON.parse(dataKey) as Pick<UplotCanvasProps, 'steps' | 'series' | 'valueRange'>;
    const chart = new uPlot(
      {
        width: target.clientWidth || 600,
        height: HEIGHT,
        legend: { show: false },
        scales: {
          x: { time: false },
          y: { range: (_chart, _min, max) => valueRange ?? [0, max > 0 ? max * 1.1 : 1] },
        },
        axes: [
          {
            stroke: AXIS_COLOUR,
            font: FONT,
            labelFont: FONT,
            label: 'step',
            grid: { stroke: GRID_COLOUR },
            ticks: { stroke: GRID_COLOUR },
            incrs: [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000],
            values: (_chart, splits) => splits.map((split) => String(split)),
          },
          {
            stroke: AXIS_COLOUR,
            font: FONT,
            // Wide enough for the longest value written on it (about 7 pixels a character at 12 pixels).
            size: (_chart, values) => 20 + 7 * Math.max(4, ...(values ?? []).map((value) => value.length)),
            grid: { stroke: GRID_COLOUR },
            ticks: { stroke: GRID_COLOUR },
            values: (_chart, splits) => splits.map((split) => latestFormat.current(split)),
          },
        ],
        series: [
          { label: 'step' },
          ...series.map((entry): uPlot.Series => {
            if (entry.style === 'accepted-marker' || entry.style === 'rejected-marker')
              return { label: entry.label, stroke: entry.color, paths: () => null, points: { show: false } };
            return {
              label: entry.label,
              stroke: entry.color,
              width: 2,
              spanGaps: true,
              ...(entry.style === 'dashed' ? { dash: [6, 4] } : {}),
              ...(entry.style === 'stepped' && steppedPaths !== undefined ? { paths: steppedPaths({ align: 1 }) } : {}),
              points: { show: true, size: 5, fill: entry.color },
            };
          }),
        ],
        hooks: {
          draw: [
            (chart) =>
              series.forEach((entry, index) => {
                if (entry.style === 'accepted-marker') drawMarkers(chart, index + 1, 'triangle', entry.color);
                if (entry.style === 'rejected-marker') drawMarkers(chart, index + 1, 'cross', entry.color);
              }),
          ],
        },
      },
      [steps, ...series.map((entry) => entry.values)] as uPlot.AlignedData,
      target,
    );
    const resize = new ResizeObserver(() => {
      if (target.clientWidth > 0 && target.clientWidth !== chart.width) chart.setSize({ width: target.clientWidth, height: HEIGHT });
    });
    resize.observe(target);
    return () => {
      resize.disconnect();
      chart.destroy();
    };
  }, [dataKey]);
  return <div ref={container} className="chart-canvas" role="img" aria-label={description} />;
}
