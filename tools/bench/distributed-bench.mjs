#!/usr/bin/env node
// The demo (configs/demo/default.yaml) at a simulated latency per call, run by the CLI once in
// process as the reference, then with its rollouts sent to Redis (run.executor: bullmq) for 1, 2
// and 4 `skillopt worker` processes: wall time against the run's latency slots (its critical
// path in call latencies), calls, rollouts, the calls each worker made, and whether the best skill
// is the in-process one byte for byte. See tools/bench/README.md and docs/benchmarks.md.
//
// It starts its own redis-server (the Debian package) on a loopback port, as the tests do, and
// stops it and every process it started at the end, also when a run fails.
//
//   node tools/bench/distributed-bench.mjs [--workers 1,2,4] [--concurrency 8] [--latency-ms 200] [--seed 1] [--json]
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { core, fixed, machineLine, numberList, repoRoot, table } from './lib/demo-run.mjs';

const USAGE = 'node tools/bench/distributed-bench.mjs [--workers 1,2,4] [--concurrency 8] [--latency-ms 200] [--seed 1] [--json]';
const cli = path.join(repoRoot, 'apps', 'cli', 'bin', 'run.js');
const redisTesting = path.join(repoRoot, 'packages', 'executor-bullmq', 'dist', 'testing.js');
// A run that takes longer than this is stuck, not slow: the demo takes seconds.
const RUN_TIMEOUT_MS = 5 * 60_000;

const { values } = parseArgs({
  options: {
    workers: { type: 'string', default: '1,2,4' },
    concurrency: { type: 'string', default: '8' },
    'latency-ms': { type: 'string', default: '200' },
    seed: { type: 'string', default: '1' },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const workerCounts = numberList(values.workers, '--workers').map((count) => Math.max(1, Math.round(count)));
const [concurrency] = numberList(values.concurrency, '--concurrency');
const [latencyMs] = numberList(values['latency-ms'], '--latency-ms');
const [seed] = numberList(values.seed, '--seed');
for (const [file, what] of [
  [cli, 'the CLI (apps/cli/dist)'],
  [redisTesting, '@skillopt/executor-bullmq'],
]) {
  if (!existsSync(file)) {
    console.error(`${what} is not built: build first (pnpm exec nx run-many -t build --outputStyle=static).`);
    process.exit(2);
  }
}
const { startRedisServer } = await import(pathToFileURL(redisTesting).href);

// The same demo for every setting; the simulator and the training loop share the seed.
const demoSettings = [`backends.sim.latency_ms=${latencyMs}`, `backends.sim.seed=${seed}`, `train.seed=${seed}`].flatMap((setting) => ['--set', setting]);

const started = new Set();

/** A `skillopt` process started from `directory`: its end (code, signal, what it printed) and its stderr so far. */
function startSkillopt(args, directory) {
  // Colour codes would only get in the way of the lines the bench waits for.
  const { FORCE_COLOR: _forced, ...inherited } = process.env;
  const child = spawn(process.execPath, [cli, ...args], { cwd: directory, env: { ...inherited, NO_COLOR: '1', NODE_OPTIONS: '' } });
  started.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const ended = new Promise((resolve) =>
    child.on('close', (code, signal) => {
      started.delete(child);
      resolve({ code, signal, stdout, stderr });
    }),
  );
  return { child, ended, stderrSoFar: () => stderr };
}

/** Stops what the bench started and has not seen end: SIGTERM, then SIGKILL after 5 s. */
async function stopStarted() {
  const endings = [...started].map(
    (child) =>
      new Promise((resolve) => {
        const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
        child.once('close', () => {
          clearTimeout(timer);
          resolve();
        });
        child.kill('SIGTERM');
      }),
  );
  await Promise.all(endings);
}

/** Resolves once a worker has said it takes jobs; rejects if it ends first. */
async function untilTakingJobs(worker, name) {
  const deadline = Date.now() + 30_000;
  let ended;
  void worker.ended.then((end) => (ended = end));
  while (!worker.stderrSoFar().includes('taking rollout jobs from')) {
    if (ended !== undefined) throw new Error(`worker ${name} ended (code ${ended.code}) before taking jobs:\n${ended.stderr}`);
    if (Date.now() > deadline) throw new Error(`worker ${name} did not start within 30 s:\n${worker.stderrSoFar()}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** One demo run by the CLI into `<directory>/<out>`: the process's wall time and what the run directory says. */
async function runDemo(directory, out, extraArgs) {
  const startedAt = process.hrtime.bigint();
  const trainer = startSkillopt(['demo', '--out', out, ...demoSettings, ...extraArgs], directory);
  const timeout = setTimeout(() => trainer.child.kill('SIGKILL'), RUN_TIMEOUT_MS);
  const end = await trainer.ended;
  clearTimeout(timeout);
  const processWallMs = Number(process.hrtime.bigint() - startedAt) / 1e6;
  if (end.code !== 0) throw new Error(`skillopt demo --out ${out} ended with code ${end.code ?? end.signal}:\n${end.stderr.trim()}`);
  const runDirectory = path.join(directory, out);
  const summary = JSON.parse(readFileSync(path.join(runDirectory, 'summary.json'), 'utf8'));
  const events = readFileSync(path.join(runDirectory, 'events.jsonl'), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line));
  const timeOf = (type) => Date.parse(events.find((event) => event.type === type)?.timestamp ?? '');
  const targetCalls = (await core.readRunLedger(runDirectory)).filter((entry) => entry.role === 'target' && !entry.cacheHit);
  const callsByWorker = {};
  for (const entry of targetCalls) {
    const worker = entry.worker ?? 'trainer';
    callsByWorker[worker] = (callsByWorker[worker] ?? 0) + 1;
  }
  return {
    // From the run's first event to its last: the CLI's start-up and exit are in processWallMs only.
    wallMs: timeOf('run-finished') - timeOf('run-started'),
    processWallMs,
    latencySlots: summary.latencySlots,
    sequentialWaves: summary.sequentialWaves,
    calls: summary.usage.overall.calls,
    targetCalls: targetCalls.length,
    callsByWorker,
    rollouts: summary.rollouts,
    bestSkill: readFileSync(path.join(runDirectory, 'best_skill.md'), 'utf8'),
    bestValidation: summary.best.score,
    notices: end.stderr
      .split('\n')
      .filter((line) => /Redis|enqueued again|refused/.test(line))
      .map((line) => line.trim()),
  };
}

const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-distributed-bench-'));
let redis;
const results = [];
let failure;
const onSignal = () => {
  failure = new Error('interrupted');
  void stopStarted();
};
process.once('SIGINT', onSignal);
process.once('SIGTERM', onSignal);
try {
  const reference = await runDemo(directory, 'in-process', []);
  results.push({ setting: 'in process', workers: 0, rolloutsAtOnce: undefined, ...reference, criticalPathSlots: reference.latencySlots, sameBestSkill: true });
  redis = await startRedisServer();
  for (const count of workerCounts) {
    if (failure) throw failure;
    const rolloutsAtOnce = count * concurrency;
    // The same run in process with as many rollouts at once as the workers run: its latency slots
    // are the critical path at that capacity, which the distributed run's own summary must match.
    const atCapacity = await runDemo(directory, `in-process-${rolloutsAtOnce}`, ['--set', `run.rollout_concurrency=${rolloutsAtOnce}`]);
    results.push({
      setting: `in process, ${rolloutsAtOnce} at once`,
      workers: 0,
      rolloutsAtOnce,
      ...atCapacity,
      criticalPathSlots: atCapacity.latencySlots,
      sameBestSkill: atCapacity.bestSkill === reference.bestSkill,
    });
    const names = Array.from({ length: count }, (_, index) => `worker-${index + 1}`);
    const workers = names.map((name) => ({
      name,
      process: startSkillopt(['worker', '--redis-url', redis.url, '--concurrency', String(concurrency), '--name', name], directory),
    }));
    await Promise.all(workers.map((worker) => untilTakingJobs(worker.process, worker.name)));
    // The trainer sends at most run.rollout_concurrency rollouts at once: the workers' capacity, as docs/distributed.md says to set it.
    const result = await runDemo(directory, `workers-${count}`, [
      '--set',
      'run.executor=bullmq',
      '--set',
      `run.rollout_concurrency=${rolloutsAtOnce}`,
      '--redis-url',
      redis.url,
    ]);
    // A worker stops on SIGTERM once its running rollouts are done, and exits 0.
    for (const worker of workers) worker.process.child.kill('SIGTERM');
    const workerExits = await Promise.all(workers.map((worker) => worker.process.ended));
    results.push({
      setting: `${count} worker${count === 1 ? '' : 's'} × ${concurrency}`,
      workers: count,
      rolloutsAtOnce,
      ...result,
      criticalPathSlots: atCapacity.latencySlots,
      sameBestSkill: result.bestSkill === reference.bestSkill,
      workerExitCodes: workerExits.map((end) => end.code ?? end.signal),
    });
  }
} catch (error) {
  // An interruption stops the runs, which then fail: the interruption is what to report.
  failure ??= error;
} finally {
  await stopStarted();
  await redis?.stop();
  rmSync(directory, { recursive: true, force: true });
}
if (failure) {
  console.error(`The distributed bench failed: ${failure instanceof Error ? failure.message : String(failure)}`);
  process.exit(1);
}

const criticalPathMs = (result) => result.criticalPathSlots * latencyMs;
const figures = results.map(({ bestSkill: _bestSkill, ...result }) => ({
  ...result,
  criticalPathMs: criticalPathMs(result),
  beyondCriticalPathMs: result.wallMs - criticalPathMs(result),
  wallOverCriticalPath: result.wallMs / criticalPathMs(result),
}));

if (values.json) {
  console.log(JSON.stringify({ machine: machineLine(), latencyMs, concurrency, seed, results: figures }, null, 2));
  process.exit(0);
}

console.log(
  `Distributed bench — configs/demo/default.yaml, SIMULATED model at ${latencyMs} ms per call, seed ${seed}; ` +
    `workers of concurrency ${concurrency} on this machine, one redis-server on 127.0.0.1`,
);
console.log(machineLine());
console.log('');
console.log(
  table(
    [
      'setting',
      'rollouts at once',
      'wall',
      'process wall',
      'latency slots',
      'slots × latency',
      'wall − slots × latency',
      'wall ÷ (slots × latency)',
      'summary’s slots',
      'calls',
      'rollouts run',
      'cache hits',
      'target calls per worker',
      'best skill = in process',
    ],
    figures.map((result) => [
      result.setting,
      result.rolloutsAtOnce === undefined ? 'sim default' : String(result.rolloutsAtOnce),
      `${fixed(result.wallMs / 1000, 2)} s`,
      `${fixed(result.processWallMs / 1000, 2)} s`,
      String(result.criticalPathSlots),
      `${fixed(result.criticalPathMs / 1000, 2)} s`,
      `${fixed(result.beyondCriticalPathMs / 1000, 2)} s`,
      `${fixed(result.wallOverCriticalPath, 2)}×`,
      String(result.latencySlots),
      String(result.calls),
      String(result.rollouts.run),
      String(result.rollouts.cacheHits),
      Object.entries(result.callsByWorker)
        .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }))
        .map(([worker, calls]) => `${worker} ${calls}`)
        .join(', '),
      result.sameBestSkill ? 'yes' : 'NO',
    ]),
  ),
);
console.log('');
console.log(
  'wall: the run from its run-started to its run-finished event; process wall adds the CLI start-up and exit. ' +
    'latency slots: the critical path in model calls, from the summary of the in-process run with as many rollouts at once; ' +
    'slots × latency is the wall time no schedule at that capacity can beat. ' +
    'summary’s slots: what the run’s own summary says (a distributed run adds the slots each worker reports for its rollout).',
);
for (const result of figures) {
  if (result.notices.length > 0) console.log(`${result.setting}: ${result.notices.join(' | ')}`);
  const exits = result.workerExitCodes ?? [];
  if (exits.some((code) => code !== 0)) console.log(`${result.setting}: the workers ended with ${exits.join(', ')} on SIGTERM (expected 0).`);
}
if (figures.some((result) => !result.sameBestSkill)) process.exitCode = 1;
