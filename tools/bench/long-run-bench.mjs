#!/usr/bin/env node
// A long run: 200 steps of the demo's loop on a generated larger train split (the demo's 60
// training questions repeated under new ids, 1,200 in all, batch 6, one epoch), at 0 ms per call on
// the SIMULATED model in this process. It shows what grows with a run: the wall time per step at
// the start and at the end, the bytes the run directory holds per step, the loop's overhead per
// model call, latency slots and peak memory. See tools/bench/README.md and docs/benchmarks.md.
//
//   node tools/bench/long-run-bench.mjs [--steps 200] [--json]
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectListenerWarnings, fixed, machineLine, repoRoot, runDemo, table } from './lib/demo-run.mjs';

const warnings = collectListenerWarnings();
const { values } = parseArgs({
  options: { steps: { type: 'string', default: '200' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', default: false } },
});
if (values.help) {
  console.log('node tools/bench/long-run-bench.mjs [--steps 200] [--json]');
  process.exit(0);
}
const steps = Number(values.steps);
if (!Number.isInteger(steps) || steps < 20) {
  console.error(`--steps takes a whole number of at least 20, got "${values.steps}"`);
  process.exit(2);
}
const BATCH_SIZE = 6;

/** The demo's splits, with the train split repeated under new ids until it holds `steps` batches. */
function writeGeneratedSplits() {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-long-run-splits-'));
  const demo = path.join(repoRoot, 'datasets', 'demo');
  for (const split of ['train', 'val', 'test']) {
    const items = JSON.parse(readFileSync(path.join(demo, split, 'items.json'), 'utf8'));
    const wanted = split === 'train' ? steps * BATCH_SIZE : items.length;
    const generated = Array.from({ length: wanted }, (_unused, index) => {
      const item = items[index % items.length];
      const copy = Math.floor(index / items.length);
      return copy === 0 ? item : { ...item, id: `${item.id}-copy-${String(copy).padStart(3, '0')}` };
    });
    mkdirSync(path.join(directory, split), { recursive: true });
    writeFileSync(path.join(directory, split, 'items.json'), JSON.stringify(generated, null, 2));
  }
  return directory;
}

const splitDirectory = writeGeneratedSplits();
try {
  const { summary, events, wallMs, bytesWritten } = await runDemo([
    `env.split_dir=${splitDirectory}`,
    `train.batch_size=${BATCH_SIZE}`,
    'train.num_epochs=1',
    'backends.sim.latency_ms=0',
  ]);
  const stepStarts = new Map();
  const stepMs = [];
  for (const event of events) {
    if (event.type === 'step-started') stepStarts.set(event.globalStep, Date.parse(event.timestamp));
    if (event.type === 'step-finished') stepMs.push(Date.parse(event.timestamp) - (stepStarts.get(event.globalStep) ?? Date.parse(event.timestamp)));
  }
  const window = Math.min(20, Math.floor(stepMs.length / 2));
  const mean = (list) => list.reduce((sum, value) => sum + value, 0) / Math.max(1, list.length);
  const result = {
    steps: stepMs.length,
    wallMs,
    calls: summary.usage.overall.calls,
    callsByRole: Object.fromEntries(Object.entries(summary.usage.byRole).map(([role, totals]) => [role, totals.calls])),
    latencySlots: summary.latencySlots,
    sequentialWaves: summary.sequentialWaves,
    firstStepsMs: mean(stepMs.slice(0, window)),
    lastStepsMs: mean(stepMs.slice(-window)),
    bytesWritten,
    peakRssMiB: process.resourceUsage().maxRSS / 1024,
  };
  if (values.json) {
    console.log(JSON.stringify({ machine: machineLine(), result }, null, 2));
  } else {
    console.log(
      `Long-run bench — the demo's loop, ${result.steps} steps of ${BATCH_SIZE} on a generated train split of ${steps * BATCH_SIZE} items, SIMULATED model, 0 ms per call`,
    );
    console.log(machineLine());
    console.log('');
    console.log(
      table(
        [
          'steps',
          'wall',
          'calls (target / optimizer)',
          'latency slots',
          'waves',
          'overhead per call',
          `ms/step, first ${window}`,
          `ms/step, last ${window}`,
          'run dir',
          'per step',
          'peak RSS',
        ],
        [
          [
            String(result.steps),
            `${fixed(wallMs / 1000, 1)} s`,
            `${result.calls} (${result.callsByRole.target ?? 0} / ${result.callsByRole.optimizer ?? 0})`,
            String(result.latencySlots ?? '—'),
            String(result.sequentialWaves),
            `${fixed(wallMs / result.calls, 2)} ms`,
            fixed(result.firstStepsMs, 1),
            fixed(result.lastStepsMs, 1),
            `${fixed(bytesWritten / 1024 / 1024, 1)} MiB`,
            `${fixed(bytesWritten / Math.max(1, result.steps) / 1024, 1)} KiB`,
            `${fixed(result.peakRssMiB, 0)} MiB`,
          ],
        ],
      ),
    );
    console.log('');
    console.log('A step at the end costs what one at the start does when nothing that grows with the run is rewritten or re-read in full per step.');
  }
} finally {
  rmSync(splitDirectory, { recursive: true, force: true });
}
warnings.report();
