import uPlot from 'uplot';

/** Draws a marker series as shapes: a filled triangle for an accepted candidate, a cross for a rejected one. */
export function drawMarkers(chart: uPlot, seriesIndex: number, shape: 'triangle' | 'cross', color: string): void {
  const steps = chart.data[0];
  const values = chart.data[seriesIndex];
  if (values === undefined) return;
  const context = chart.ctx;
  const size = 6 * uPlot.pxRatio;
  context.save();
  context.fillStyle = color;
  context.strokeStyle = color;
  context.lineWidth = 2.5 * uPlot.pxRatio;
  steps.forEach((step, index) => {
    const value = values[index];
    if (value === null || value === undefined) return;
    const x = chart.valToPos(step, 'x', true);
    const y = chart.valToPos(value, 'y', true);
    context.beginPath();
    if (shape === 'triangle') {
      context.moveTo(x, y - size);
      context.lineTo(x + size, y + size * 0.8);
      context.lineTo(x - size, y + size * 0.8);
      context.closePath();
      context.fill();
    } else {
      context.moveTo(x - size, y - size);
      context.lineTo(x + size, y + size);
      context.moveTo(x + size, y - size);
      context.lineTo(x - size, y + size);
      context.stroke();
    }
  });
  context.restore();
}
