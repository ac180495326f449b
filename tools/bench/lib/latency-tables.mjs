// The tables every latency bench prints (demo-bench, sleep-night-bench): the same figures, read
// the same way, whatever the run was.
import { fixed, table } from './demo-run.mjs';

/**
 * Calls by role and purpose, one column per latency. `callsOf(result)` gives a result's
 * `{ role: { purpose: totals } }`; `cellOf(totals)` writes one cell (default: the calls, 0 when absent).
 */
export function callsByRoleAndPurposeTable(results, callsOf, cellOf = (totals) => String(totals?.calls ?? 0)) {
  const rows = [];
  const roles = [...new Set(results.flatMap((result) => Object.keys(callsOf(result))))].sort((a, b) => b.localeCompare(a));
  for (const role of roles) {
    const purposes = [...new Set(results.flatMap((result) => Object.keys(callsOf(result)[role] ?? {})))];
    for (const purpose of purposes) rows.push([role, purpose, ...results.map((result) => cellOf(callsOf(result)[role]?.[purpose]))]);
  }
  rows.push(['all', '', ...results.map((result) => String(result.calls))]);
  return table(['role', 'purpose', ...results.map((result) => `calls @${result.latencyMs} ms`)], rows);
}

/** The timing columns both benches share; a bench appends its own after them. */
export const TIMING_HEADER = [
  'latency/call',
  'wall',
  'waves',
  'latency slots',
  'wall ÷ latency',
  '÷ slots',
  'calls',
  'rollouts run',
  'cache hits',
  'Σ call latency',
  'overlap',
];

/** A result's timing cells, against the run at 0 ms (`zero`), which measures the loop's own time. */
export function timingCells(result, zero) {
  const slotsTaken = result.latencyMs === 0 || !zero ? undefined : (result.wallMs - zero.wallMs) / result.latencyMs;
  return [
    `${result.latencyMs} ms`,
    `${fixed(result.wallMs / 1000, 2)} s`,
    String(result.sequentialWaves),
    String(result.latencySlots ?? '—'),
    // The latency slots the run took in fact: its wall time beyond the loop's own (at 0 ms), in calls.
    slotsTaken === undefined ? '—' : fixed(slotsTaken, 1),
    // Against the critical path: 1.0 is a schedule with no slack (target: within 1.3).
    slotsTaken === undefined || !result.latencySlots ? '—' : `${fixed(slotsTaken / result.latencySlots, 2)}×`,
    String(result.calls),
    String(result.rollouts.run),
    String(result.rollouts.cacheHits),
    `${fixed(result.summedModelLatencyMs / 1000, 2)} s`,
    result.latencyMs === 0 ? '—' : `${fixed(result.summedModelLatencyMs / result.wallMs, 1)}×`,
  ];
}
