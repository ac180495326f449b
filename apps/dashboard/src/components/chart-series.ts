/** One series of a chart over the run's steps; `values[i]` belongs to the chart's `steps[i]`, null where it has none. */
export interface ChartSeries {
  label: string;
  values: Array<number | null>;
  color: string;
  /** How it is drawn: lines join the points; markers are single shapes (a gate's accepted or rejected candidate). */
  style: 'line' | 'dashed' | 'stepped' | 'accepted-marker' | 'rejected-marker';
}

/** What stands for a series in the legend, so a series is told apart by its shape as well as its colour. */
export function legendGlyph(style: ChartSeries['style']): string {
  switch (style) {
    case 'line':
      return '━';
    case 'dashed':
      return '┅';
    case 'stepped':
      return '┗━';
    case 'accepted-marker':
      return '▲';
    case 'rejected-marker':
      return '✕';
  }
}
