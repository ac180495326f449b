#!/usr/bin/env node
// One Sleep night on a shipped persona (the researcher's twelve tasks by default), run in this
// process through @skillopt/sleep's dryRunNight, as `skillopt sleep dry-run --persona researcher`
// runs it, against the SIMULATED model at each given latency per call (backends.sim.latency_ms):
// model calls by purpose and by role, wall time, the sequential waves and latency slots of the
// night's core run (its summary.json), the latency slots taken in fact, and the outcome. See
// tools/bench/README.md and docs/benchmarks.md.
//
//   node tools/bench/sleep-night-bench.mjs [--latency-ms 0,200] [--persona researcher] [--repeat 3] [--set key=value …] [--json]
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { collectListenerWarnings, core, fixed, importBuilt, machineLine, numberList, repoRoot, table } from './lib/demo-run.mjs';
import { callsByRoleAndPurposeTable, TIMING_HEADER, timingCells } from './lib/latency-tables.mjs';

const warnings = collectListenerWarnings();
const sleepPackage = path.join(repoRoot, 'packages', 'sleep');

const { values } = parseArgs({
  options: {
    'latency-ms': { type: 'string', default: '0,200' },
    persona: { type: 'string', default: 'researcher' },
    repeat: { type: 'string', default: '3' },
    set: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('node tools/bench/sleep-night-bench.mjs [--latency-ms 0,200] [--persona researcher] [--repeat 3] [--set key=value …] [--json]');
  process.exit(0);
}
const latencies = numberList(values['latency-ms'], '--latency-ms');
const repeat = Math.max(1, Number.parseInt(values.repeat, 10) || 1);

const { dryRunNight, personaFixture } = await importBuilt('sleep');
const { createPackageResolver } = core;
const { tasksFile, skillFile } = personaFixture(values.persona);
// The simulated backend is a development dependency of @skillopt/sleep: resolved from its folder, as the bin resolves it from its installation.
const resolver = createPackageResolver({ workingDirectory: sleepPackage });

const median = (numbers) => {
  const sorted = [...numbers].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

/** One dry-run night in a throw-away folder: its report, core's run summary, and the wall time from the call to its return. */
async function night(latencyMs) {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'skillopt-sleep-night-bench-'));
  try {
    const startedAt = performance.now();
    const result = await dryRunNight({
      tasksFile,
      skillFile,
      outputDirectory: path.join(folder, 'night'),
      overrides: [...values.set, `backends.sim.latency_ms=${latencyMs}`],
      workingDirectory: folder,
      resolver,
    });
    const wallMs = performance.now() - startedAt;
    const summary = JSON.parse(readFileSync(path.join(result.report.runDirectory, 'summary.json'), 'utf8'));
    return { wallMs, report: result.report, summary };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

const results = [];
for (const latencyMs of latencies) {
  const walls = [];
  let last;
  for (let index = 0; index < repeat; index++) {
    last = await night(latencyMs);
    walls.push(last.wallMs);
  }
  const { report, summary } = last;
  results.push({
    latencyMs,
    wallMs: median(walls),
    wallMsRuns: walls,
    outcome: report.outcome,
    validation: report.validation,
    rulesAdded: report.rules.added.length,
    calls: report.usage.calls,
    callsByPurpose: Object.fromEntries(Object.entries(report.usage.byPurpose).filter(([, calls]) => calls > 0)),
    callsByRoleAndPurpose: Object.fromEntries(
      Object.entries(summary.usage.byRoleAndPurpose).map(([role, purposes]) => [
        role,
        Object.fromEntries(Object.entries(purposes).map(([purpose, totals]) => [purpose, { calls: totals.calls, cacheHits: totals.cacheHits }])),
      ]),
    ),
    sequentialWaves: summary.sequentialWaves,
    latencySlots: summary.latencySlots,
    summedModelLatencyMs: summary.usage.overall.latencyMs,
    rollouts: summary.rollouts,
  });
}

if (values.json) {
  console.log(JSON.stringify({ machine: machineLine(), persona: values.persona, repeat, results }, null, 2));
  process.exit(0);
}

console.log(
  `Sleep night bench — the ${values.persona} persona's dry-run night (dryRunNight, as \`skillopt sleep dry-run --persona ${values.persona}\`), SIMULATED model, in process (median of ${repeat} run${repeat === 1 ? '' : 's'} per latency)`,
);
console.log(machineLine());
console.log('');

// Calls by role and purpose: the same work at every latency (the simulator is deterministic).
const cacheCell = (totals) => (totals === undefined ? '0' : `${totals.calls}${totals.cacheHits > 0 ? ` (${totals.cacheHits} cache hits)` : ''}`);
console.log("Model calls by role and purpose (the night's core run: a dry run mines nothing; cache hits are replays reused, not calls)");
console.log(callsByRoleAndPurposeTable(results, (result) => result.callsByRoleAndPurpose, cacheCell));
console.log('');

const zero = results.find((result) => result.latencyMs === 0);
console.log("Time (target: the latency slots taken within 1.3× of the night's critical path, as for the demo)");
console.log(
  table(
    [...TIMING_HEADER, 'slots × latency'],
    results.map((result) => [...timingCells(result, zero), `${fixed(((result.latencySlots ?? 0) * result.latencyMs) / 1000, 2)} s`]),
  ),
);
if (zero)
  console.log(
    `\nLoop overhead at 0 ms per call: ${fixed(zero.wallMs, 0)} ms wall / ${zero.calls} model calls = ${fixed(zero.wallMs / zero.calls, 1)} ms per call ` +
      "(the night's own work: its env set-up, prompts, judging, the gate, the run directory, the report).",
  );
const first = results[0];
if (first) {
  const percent = (score) => `${fixed(score * 100)}%`;
  console.log(
    `Outcome (every latency alike): ${first.outcome}, validation ${percent(first.validation.before.score)} → ${percent(first.validation.after.score)}, ${first.rulesAdded} rule(s) added.`,
  );
}
console.log(`Peak resident memory of the bench process: ${fixed(process.resourceUsage().maxRSS / 1024, 0)} MiB.`);
warnings.report();
