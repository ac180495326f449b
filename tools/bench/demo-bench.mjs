#!/usr/bin/env node
// The demo (configs/demo/default.yaml) trained in this process through core's train() against the
// SIMULATED model at each given latency (backends.sim.latency_ms): model calls by role and
// purpose from the run summary's ledger totals, sequential waves, wall time, and the loop's own
// overhead per model call at 0 ms. See tools/bench/README.md and docs/benchmarks.md.
//
// With `--transport http` the simulator is served on 127.0.0.1 (as `skillopt sim serve` does) and
// driven through @skillopt/backends-openai and the real openai SDK.
//
//   node tools/bench/demo-bench.mjs [--latency-ms 0,20] [--transport in-process|http] [--repeat 3] [--set key=value …] [--json]
import { parseArgs } from 'node:util';
import { collectListenerWarnings, fixed, machineLine, numberList, runDemo, table, TRANSPORTS } from './lib/demo-run.mjs';
import { callsByRoleAndPurposeTable, TIMING_HEADER, timingCells } from './lib/latency-tables.mjs';

const warnings = collectListenerWarnings();

const { values } = parseArgs({
  options: {
    'latency-ms': { type: 'string', default: '0,20' },
    transport: { type: 'string', default: 'in-process' },
    repeat: { type: 'string', default: '3' },
    set: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('node tools/bench/demo-bench.mjs [--latency-ms 0,20] [--transport in-process|http] [--repeat 3] [--set key=value …] [--json]');
  process.exit(0);
}
if (!TRANSPORTS.includes(values.transport)) {
  console.error(`--transport takes one of ${TRANSPORTS.join(', ')}, got "${values.transport}"`);
  process.exit(2);
}
const latencies = numberList(values['latency-ms'], '--latency-ms');
const repeat = Math.max(1, Number.parseInt(values.repeat, 10) || 1);

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

const results = [];
for (const latencyMs of latencies) {
  const walls = [];
  let last;
  for (let index = 0; index < repeat; index++) {
    last = await runDemo([...values.set, `backends.sim.latency_ms=${latencyMs}`], values.transport);
    walls.push(last.wallMs);
  }
  const { summary } = last;
  results.push({
    latencyMs,
    wallMs: median(walls),
    wallMsRuns: walls,
    sequentialWaves: summary.sequentialWaves,
    latencySlots: summary.latencySlots,
    calls: summary.usage.overall.calls,
    callsByRole: Object.fromEntries(Object.entries(summary.usage.byRole).map(([role, totals]) => [role, totals.calls])),
    byRoleAndPurpose: Object.fromEntries(
      Object.entries(summary.usage.byRoleAndPurpose).map(([role, purposes]) => [
        role,
        Object.fromEntries(Object.entries(purposes).map(([purpose, totals]) => [purpose, { calls: totals.calls, cacheHits: totals.cacheHits }])),
      ]),
    ),
    summedModelLatencyMs: summary.usage.overall.latencyMs,
    bytesWritten: last.bytesWritten,
    rollouts: summary.rollouts,
    accepted: summary.acceptedCandidates,
    rejected: summary.rejectedCandidates,
    test: summary.test,
  });
}

if (values.json) {
  console.log(JSON.stringify({ machine: machineLine(), transport: values.transport, repeat, results }, null, 2));
  process.exit(0);
}

console.log(
  `Demo bench — configs/demo/default.yaml, SIMULATED model, ${values.transport === 'http' ? 'over HTTP on 127.0.0.1 through @skillopt/backends-openai' : 'in process'} (median of ${repeat} run${repeat === 1 ? '' : 's'} per latency)`,
);
console.log(machineLine());
console.log('');

// Calls by role and purpose: the same work at every latency (the simulator is deterministic).
console.log('Model calls by role and purpose (ledger totals; cache hits are not calls)');
console.log(callsByRoleAndPurposeTable(results, (result) => result.byRoleAndPurpose));
console.log('');

const zero = results.find((result) => result.latencyMs === 0);
console.log('Time');
console.log(
  table(
    [...TIMING_HEADER, 'waves × latency', 'run dir'],
    results.map((result) => [
      ...timingCells(result, zero),
      `${fixed((result.sequentialWaves * result.latencyMs) / 1000, 2)} s`,
      `${fixed(result.bytesWritten / 1024, 0)} KiB`,
    ]),
  ),
);
if (zero) {
  console.log('');
  console.log(
    `Loop overhead at 0 ms per call: ${fixed(zero.wallMs, 0)} ms wall / ${zero.calls} model calls = ${fixed(zero.wallMs / zero.calls, 2)} ms per call ` +
      `(everything that is not model latency: prompts, parsing, scoring, cache, run-directory writes, events, ledger).`,
  );
}
const outcome = results[0];
if (outcome?.test)
  console.log(
    `Outcome (every latency alike): ${outcome.accepted} accepted / ${outcome.rejected} rejected candidates; test hard ${fixed(outcome.test.initial.hard * 100)}% → ${fixed(outcome.test.best.hard * 100)}%.`,
  );
console.log(`Peak resident memory of the bench process: ${fixed(process.resourceUsage().maxRSS / 1024, 0)} MiB.`);
warnings.report();
