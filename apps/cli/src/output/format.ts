import type { SplitName } from '@skillopt/contract';
import { visibleWidth } from './terminal-width.js';

/** A score in 0..1 as a percentage with one decimal, or a dash when there is none. */
export function formatScore(score: number | null | undefined): string {
  return score === null || score === undefined ? '—' : `${(score * 100).toFixed(1)}%`;
}

export function formatUsd(usd: number, unpricedCalls: number): string {
  const amount = `$${usd.toFixed(4)}`;
  return unpricedCalls > 0 ? `${amount} (+${unpricedCalls} call${unpricedCalls === 1 ? '' : 's'} without a price)` : amount;
}

/** Counts per split, in split order, leaving out zeros: "2 val, 1 test" (or with other labels); empty for none. */
export function formatPerSplit(counts: Readonly<Record<SplitName, number>>, labels: Readonly<Record<SplitName, string>> = SPLIT_NAMES): string {
  return (['train', 'val', 'test'] as const)
    .filter((split) => counts[split] > 0)
    .map((split) => `${counts[split]} ${labels[split]}`)
    .join(', ');
}

const SPLIT_NAMES: Readonly<Record<SplitName, string>> = { train: 'train', val: 'val', test: 'test' };

export function formatCount(value: number): string {
  return value.toLocaleString('en-US');
}

/** Rows of cells as aligned text columns; a cell's styles take no column. */
export function formatTable(rows: ReadonlyArray<readonly string[]>): string {
  const widths: number[] = [];
  for (const row of rows) for (const [index, cell] of row.entries()) widths[index] = Math.max(widths[index] ?? 0, visibleWidth(cell));
  const padded = (cell: string, width: number) => cell + ' '.repeat(Math.max(0, width - visibleWidth(cell)));
  return rows.map((row) => row.map((cell, index) => (index === row.length - 1 ? cell : padded(cell, widths[index] ?? 0))).join('  ')).join('\n');
}

/** A duration as a person reads it on a status line: `45s`, `3m05s`, `2h07m`. */
export function formatDuration(milliseconds: number): string {
  const seconds = Math.round(milliseconds / 1000);
  if (seconds < 60) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m${String(seconds % 60).padStart(2, '0')}s`;
  return `${Math.floor(minutes / 60)}h${String(minutes % 60).padStart(2, '0')}m`;
}
