#!/usr/bin/env node
// Start-up time of the built CLI, from spawn to exit, timed with process.hrtime around each child
// process: `node -e 0` for scale (what any Node program pays before its own code), then
// `skillopt --version`, `skillopt --help` and `skillopt train --help`, or the one argument list
// given after --; and how long `skillopt train --json` on the demo takes to print its first event
// (run-started: oclif, the packages, config resolution, the env's splits, the run directory), after
// which it is killed. The commands take turns (run 1 of each, then run 2 of each…), so a change in the
// machine's load during the series falls on all of them alike; one extra round first warms the
// file-system cache and is not counted. Median and p90 per command, with the target beside each.
//
//   node tools/bench/cli-startup.mjs [--runs 20] [--json] [--no-fast-path] [--bin <run.js> …] [-- <skillopt args>]
//
// --no-fast-path sets SKILLOPT_NO_FAST_PATH=1: oclif answers --version and --help as it did
// before bin/run.js answered them from the manifest. --bin times another bin instead, e.g. an older
// bin/run.js copied into apps/cli/bin (it must sit there to find oclif and the manifest); given
// more than once, the bins take turns too, so that a before and an after see the same load.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const usage = 'node tools/bench/cli-startup.mjs [--runs 20] [--json] [--no-fast-path] [--bin <run.js> …] [-- <skillopt args>]';

const { values, positionals } = parseArgs({
  options: {
    runs: { type: 'string', default: '20' },
    json: { type: 'boolean', default: false },
    'no-fast-path': { type: 'boolean', default: false },
    bin: { type: 'string', multiple: true, default: [path.join(repoRoot, 'apps', 'cli', 'bin', 'run.js')] },
    help: { type: 'boolean', short: 'h', default: false },
  },
  allowPositionals: true,
});
if (values.help) {
  console.log(usage);
  process.exit(0);
}
const bins = values.bin.map((bin) => path.resolve(bin));
const runs = Number.parseInt(values.runs, 10);
if (!Number.isInteger(runs) || runs < 1) {
  console.error(`--runs must be a positive integer, got "${values.runs}"`);
  process.exit(2);
}
if (!existsSync(path.join(repoRoot, 'apps', 'cli', 'dist')) || !existsSync(path.join(repoRoot, 'apps', 'cli', 'oclif.manifest.json'))) {
  console.error('apps/cli is not built: run pnpm exec nx run @skillopt/cli:build first.');
  process.exit(2);
}

// The targets (#17, "Start-up"): root --help and --version within 200 ms on this machine class.
const TARGET_MS = 200;
const commandsOf = (bin) => {
  const named = bins.length > 1 ? ` [${path.relative(repoRoot, bin)}]` : '';
  const skillopt = (args, targetMs) => ({ label: `skillopt ${args.join(' ')}${named}`, argv: [bin, ...args], targetMs });
  if (positionals.length > 0) return [skillopt(positionals, undefined)];
  return [
    skillopt(['--version'], TARGET_MS),
    skillopt(['--help'], TARGET_MS),
    skillopt(['train', '--help'], undefined),
    {
      ...skillopt(['train', '--config', 'configs/demo/default.yaml', '--json'], undefined),
      label: `skillopt train --json (demo): first event${named}`,
      untilFirstOutput: true,
    },
  ];
};
const commands = [{ label: 'node -e 0', argv: ['-e', '0'], targetMs: undefined }, ...bins.flatMap(commandsOf)];
const environment = { ...process.env, OCLIF_SKIP_NEW_VERSION_CHECK: 'true', ...(values['no-fast-path'] ? { SKILLOPT_NO_FAST_PATH: '1' } : {}) };
delete environment.NODE_OPTIONS;

async function once(command) {
  if (command.untilFirstOutput) return untilFirstOutput(command);
  const started = process.hrtime.bigint();
  const child = spawnSync(process.execPath, command.argv, { cwd: repoRoot, encoding: 'utf8', env: environment });
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  if (child.status !== 0) {
    console.error(`${command.label} exited ${child.status ?? child.signal}:\n${child.stderr}`);
    process.exit(1);
  }
  return ms;
}

/** Time from spawn to the first output on stdout; the process is killed then, its run directory removed. */
async function untilFirstOutput(command) {
  const runRoot = mkdtempSync(path.join(os.tmpdir(), 'skillopt-startup-'));
  const started = process.hrtime.bigint();
  try {
    return await new Promise((resolve) => {
      const child = spawn(process.execPath, [...command.argv, '--out', path.join(runRoot, 'run')], {
        cwd: repoRoot,
        env: environment,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let stderr = '';
      let firstOutputMs;
      child.stderr.on('data', (chunk) => {
        stderr += chunk;
      });
      child.stdout.once('data', () => {
        firstOutputMs = Number(process.hrtime.bigint() - started) / 1e6;
        child.kill('SIGKILL');
      });
      child.on('close', (code) => {
        if (firstOutputMs === undefined) {
          console.error(`${command.label} exited ${code} before printing anything:\n${stderr}`);
          process.exit(1);
        }
        resolve(firstOutputMs);
      });
    });
  } finally {
    rmSync(runRoot, { recursive: true, force: true });
  }
}

/** The value below which `share` of the sorted times fall (nearest rank). */
function percentile(sorted, share) {
  return sorted[Math.min(sorted.length - 1, Math.ceil(share * sorted.length) - 1)];
}

function median(sorted) {
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

const loadBefore = os.loadavg()[0];
for (const command of commands) await once(command); // warm-up, not counted
const times = commands.map(() => []);
for (let run = 0; run < runs; run++) for (const [index, command] of commands.entries()) times[index].push(await once(command));
const loadAfter = os.loadavg()[0];

const sortedTimes = times.map((series) => [...series].sort((a, b) => a - b));
const bareNodeMedianMs = median(sortedTimes[0]);
const results = commands.map((command, index) => {
  const sorted = sortedTimes[index];
  const medianMs = median(sorted);
  return {
    command: command.label,
    runs,
    medianMs,
    // What the command costs beyond starting Node, the part of its time the CLI's own code decides.
    overBareNodeMs: medianMs - bareNodeMedianMs,
    p90Ms: percentile(sorted, 0.9),
    minMs: sorted[0],
    maxMs: sorted.at(-1),
    ...(command.targetMs === undefined ? {} : { targetMs: command.targetMs, withinTarget: medianMs <= command.targetMs }),
  };
});
const report = {
  node: process.version,
  cpus: os.cpus().length,
  bins: bins.map((bin) => path.relative(repoRoot, bin)),
  fastPath: !values['no-fast-path'],
  loadAverage: { before: loadBefore, after: loadAfter },
  results,
};

if (values.json) {
  console.log(JSON.stringify(report, null, 2));
} else {
  const ms = (value) => `${value.toFixed(0)} ms`;
  const rows = [
    ['command', 'runs', 'median', 'p90', 'min', 'max', 'median − node -e 0', 'target (median)'],
    ...results.map((result, index) => [
      result.command,
      String(result.runs),
      ms(result.medianMs),
      ms(result.p90Ms),
      ms(result.minMs),
      ms(result.maxMs),
      index === 0 ? '—' : ms(result.overBareNodeMs),
      result.targetMs === undefined ? '—' : `≤ ${result.targetMs} ms ${result.withinTarget ? 'met' : 'MISSED'}`,
    ]),
  ];
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  console.log(
    `CLI start-up — Node ${process.version}, ${report.cpus} CPUs, load average ${loadBefore.toFixed(1)} → ${loadAfter.toFixed(1)}${report.fastPath ? '' : ', fast path off'}, ${report.bins.join(' and ')}`,
  );
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
