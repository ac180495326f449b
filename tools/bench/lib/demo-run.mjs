// Shared by the benchmarks: one training run of the demo (configs/demo/default.yaml) in this
// process, through core's train(), against the SIMULATED model (@skillopt/backends-sim), exactly
// as `skillopt train --config configs/demo/default.yaml` sets it up — but without the CLI, so what
// is timed is the loop itself. Everything is imported from the BUILT packages (packages/*/dist):
// build first (`pnpm exec nx run-many -t build`).
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
export const demoConfigFile = path.join(repoRoot, 'configs', 'demo', 'default.yaml');

/** The config of each world of the simulated model: the demo's own, and the hard world (`backends.sim.world: hard`). */
export const WORLD_CONFIG_FILES = { demo: demoConfigFile, hard: path.join(repoRoot, 'configs', 'demo', 'hard.yaml') };

export async function importBuilt(packageFolder) {
  const entry = path.join(repoRoot, 'packages', packageFolder, 'dist', 'index.js');
  if (!existsSync(entry)) {
    console.error(`${path.relative(repoRoot, entry)} is missing: build the packages first (pnpm exec nx run-many -t build).`);
    process.exit(2);
  }
  return import(pathToFileURL(entry).href);
}

export const core = await importBuilt('core');
export const sim = await importBuilt('backends-sim');
const openai = await importBuilt('backends-openai');

export const TRANSPORTS = ['in-process', 'http'];

/**
 * The demo's parts, made by core's run setup (prepareRun) exactly as `skillopt train --config
 * configs/demo/default.yaml` makes them: the config (demo file + `overrides`, validated against
 * the schema composed with the env's and the simulator's sections), the env, the simulated backend
 * with the env's items as its answer key, the target, the optimizer and the loaded splits.
 * Packages are found from the repository root and beside the CLI, as the CLI finds them. The
 * environment's rollout is wrapped only to remember which skill text each hash stands for.
 *
 * `transport: 'http'` serves the same simulator on 127.0.0.1 (what `skillopt sim serve` runs) and
 * drives it through @skillopt/backends-openai and the real `openai` SDK, so the figures include
 * the HTTP client, JSON and the backend's retry and limiter layers; `close()` stops the server.
 */
export async function createDemoParts(overrides = [], transport = 'in-process', configFile = demoConfigFile) {
  const resolver = core.createPackageResolver({ workingDirectory: repoRoot, fallbackDirectories: [path.join(repoRoot, 'apps', 'cli')] });
  const run = await core.prepareRun({ layers: [{ file: configFile }], overrides, workingDirectory: repoRoot, resolver, needsOptimizer: true });
  const { config, environment } = run;
  const { train, val, test } = run.splits;
  const skillsByHash = new Map();
  const observed = Object.create(environment, {
    rollout: {
      value(item, context) {
        skillsByHash.set(core.skillHash(context.skill), context.skill);
        return environment.rollout(item, context);
      },
    },
  });
  const common = { config, environment: observed, splits: run.splits, skillsByHash };
  if (transport !== 'http') return { ...common, target: run.target, optimizer: run.optimizer, close: async () => undefined };
  const simulatorSettings = core.backendSectionFor(config, sim.manifest);
  const server = await sim.createSimulatorServer({
    port: 0,
    seed: simulatorSettings.seed,
    noise: simulatorSettings.noise,
    latencyMs: simulatorSettings.latency_ms,
    harmfulRuleRate: simulatorSettings.harmful_rule_rate,
    uselessRuleRate: simulatorSettings.useless_rule_rate,
    items: [...train, ...val, ...test],
  });
  const httpBackend = await openai.createBackend({ preset: 'openai_compatible', base_url: server.url });
  return {
    ...common,
    target: { kind: 'chat', model: httpBackend.createChatModel({ role: 'target', modelId: config.model.target }) },
    optimizer: httpBackend.createChatModel({ role: 'optimizer', modelId: config.model.optimizer }),
    close: () => server.close(),
  };
}

/** One training run in a throw-away run directory (the demo's config, or another); returns the summary, every event and the wall time. */
export async function runDemo(overrides = [], transport = 'in-process', configFile = demoConfigFile) {
  const parts = await createDemoParts(overrides, transport, configFile);
  const runDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-bench-'));
  const events = [];
  try {
    const started = process.hrtime.bigint();
    const summary = await core.train({
      config: parts.config,
      environment: parts.environment,
      target: parts.target,
      optimizer: parts.optimizer,
      splits: parts.splits,
      runDirectory,
      onEvent: (event) => events.push(event),
    });
    const wallMs = Number(process.hrtime.bigint() - started) / 1e6;
    return { parts, summary, events, wallMs, bytesWritten: directorySize(runDirectory) };
  } finally {
    await parts.close();
    rmSync(runDirectory, { recursive: true, force: true });
  }
}

/** Bytes of every file under a directory: what a run left in its run directory. */
function directorySize(directory) {
  let total = 0;
  for (const entry of readdirSync(directory, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) total += statSync(path.join(entry.parentPath ?? entry.path, entry.name)).size;
  return total;
}

/** `--name a,b,c` as a list of numbers. */
export function numberList(text, flag) {
  const values = String(text)
    .split(',')
    .filter((part) => part.trim() !== '')
    .map(Number);
  if (values.length === 0 || values.some((value) => !Number.isFinite(value) || value < 0)) {
    console.error(`${flag} takes a comma-separated list of non-negative numbers, got "${text}"`);
    process.exit(2);
  }
  return values;
}

/** Rows of cells as aligned text columns; numbers are right-aligned. */
export function table(header, rows) {
  const all = [header, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = header.map((_, column) => Math.max(...all.map((row) => row[column].length)));
  const line = (row, index) =>
    row
      .map((cell, column) => (index > 0 && /^[-+]?[\d.,]+( ?(ms|s|%))?$/.test(cell) ? cell.padStart(widths[column]) : cell.padEnd(widths[column])))
      .join('  ')
      .trimEnd();
  return [line(all[0], 0), widths.map((width) => '-'.repeat(width)).join('  '), ...all.slice(1).map((row) => line(row, 1))].join('\n');
}

export const fixed = (value, digits = 1) => value.toFixed(digits);

export function machineLine() {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}, ${os.platform()} ${os.release()}, Node ${process.version}, ${new Date().toISOString().slice(0, 10)}`;
}

/**
 * Node's MaxListenersExceededWarning, printed once per occurrence, would bury the tables: with
 * real latency, every in-flight rollout adds an abort listener to one shared AbortSignal (core's
 * evaluateSkill → backends-kit's abortable), and more than 10 of them make Node warn. It is a
 * known issue of the packages, not of the bench (docs/benchmarks.md, "Findings"): the bench
 * counts these warnings and reports them in one line; every other warning is printed as usual.
 */
export function collectListenerWarnings() {
  const counts = new Map();
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    if (warning.name === 'MaxListenersExceededWarning') counts.set(warning.name, (counts.get(warning.name) ?? 0) + 1);
    else console.error(`(node) ${warning.name}: ${warning.message}`);
  });
  return {
    report() {
      const count = counts.get('MaxListenersExceededWarning') ?? 0;
      if (count > 0)
        console.log(
          `Note: Node warned ${count} time${count === 1 ? '' : 's'} "MaxListenersExceededWarning … abort listeners added to [AbortSignal]" ` +
            '(one abort listener per in-flight rollout on a shared signal; see docs/benchmarks.md, Findings).',
        );
    },
  };
}
