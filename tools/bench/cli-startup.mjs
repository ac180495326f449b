#!/usr/bin/env node
// Start-up time of the built CLI: `node apps/cli/bin/run.js --help` (and any other argument list
// given after --), run N times one after another, timed with process.hrtime around each child
// process from spawn to exit. One extra run first warms the file-system cache and is not counted.
//
//   node tools/bench/cli-startup.mjs [--runs 10] [--json] [-- <args of skillopt, default --help>]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const bin = path.join(repoRoot, 'apps', 'cli', 'bin', 'run.js');

const { values, positionals } = parseArgs({
  options: { runs: { type: 'string', default: '10' }, json: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false } },
  allowPositionals: true,
});
if (values.help) {
  console.log('node tools/bench/cli-startup.mjs [--runs 10] [--json] [-- <skillopt args, default --help>]');
  process.exit(0);
}
const runs = Number.parseInt(values.runs, 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive integer, got "${values.runs}"`);
  process.exit(2);
}
if (!existsSync(path.join(repoRoot, 'apps', 'cli', 'dist')) || !existsSync(path.join(repoRoot, 'apps', 'cli', 'oclif.manifest.json'))) {
  console.error('apps/cli is not built: run pnpm exec nx run @skillopt/cli:build first.');
  process.exit(2);
}
const args = positionals.length > 0 ? positionals : ['--help'];

function once() {
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, [bin, ...args], { cwd: repoRoot, encoding: 'utf8', env: { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true' } });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) {
    console.error(`skillopt ${args.join(' ')} exited ${child.status ?? child.signal}:\n${child.stderr}`);
    process.exit(1);
  }
  return ms;
}

once(); // warm-up, not counted
const times = Array.from({ length: runs }, once);
const sorted = [...times].sort((a, b) => a - b);
const median = sorted.length % 2 === 1 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
const baseline = (() => {
  // A bare `node -e ''` for scale: what any Node CLI pays before loading its own code.
  const started = process.hrtime.bigint();
  spawnSync(process.execPath, ['-e', ''], { encoding: 'utf8' });
  return Number(process.hrtime.bigint() - started) / 1e6;
})();

const result = {
  command: `node apps/cli/bin/run.js ${args.join(' ')}`,
  runs,
  medianMs: median,
  minMs: sorted[0],
  maxMs: sorted.at(-1),
  bareNodeMs: baseline,
  node: process.version,
};
if (values.json) {
  console.log(JSON.stringify(result, null, 2));
} else {
  const rows = [
    ['command', 'runs', 'median', 'min', 'max', 'bare node -e ""'],
    [result.command, String(runs), `${median.toFixed(0)} ms`, `${result.minMs.toFixed(0)} ms`, `${result.maxMs.toFixed(0)} ms`, `${baseline.toFixed(0)} ms`],
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(`CLI start-up — ${process.version}`);
  for (const [index, row] of rows.entries()) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    );
    if (index === 0) console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  }
}
