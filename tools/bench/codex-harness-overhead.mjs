#!/usr/bin/env node
// Harness overhead of @skillopt/backends-codex per rollout: the milliseconds from the runner's
// spawn of `codex exec` to the parsed answer, with the simulated model answering at 0 ms latency
// on loopback (backends-sim's server), so what is timed is Codex itself — its start-up, its two
// model requests around one tool round trip (`cat task.md`), its shell — and our flow around it
// (workspace files, the skill in AGENTS.md, the fresh CODEX_HOME, the transcript). Runs one at a
// time; one warm-up run first is not counted. Median and p90, with the machine's load beside them.
//
//   node tools/bench/codex-harness-overhead.mjs --codex <path of the codex bin> [--runs 20] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const importBuilt = (folder) => import(pathToFileURL(path.join(repoRoot, 'packages', folder, 'dist', 'index.js')).href);
const { values } = parseArgs({ options: { codex: { type: 'string' }, runs: { type: 'string', default: '20' }, json: { type: 'boolean', default: false } } });
if (values.codex === undefined) {
  console.error('usage: node tools/bench/codex-harness-overhead.mjs --codex <path of the codex bin> [--runs 20] [--json]');
  process.exit(2);
}
const runs = Number(values.runs);
const { createBackend } = await importBuilt('backends-codex');
const { createSimulatorServer } = await importBuilt('backends-sim');

const item = { id: 'bench-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const simulator = await createSimulatorServer({ items: [item], noise: 0, latencyMs: 0 });
const runner = createBackend({ path: values.codex, base_url: `${simulator.origin}/v1` }, { environment: { CODEX_API_KEY: 'bench' } }).createAgentRunner({
  role: 'target',
  modelId: 'sim-target',
});
const root = mkdtempSync(path.join(os.tmpdir(), 'codex-overhead-'));
const durations = [];
const loads = [];
try {
  for (let run = 0; run <= runs; run += 1) {
    const workspace = mkdtempSync(path.join(root, 'workspace-'));
    const started = process.hrtime.bigint();
    const result = await runner.run({
      skill: '# Skill\n- Give the final answer inside <answer></answer> tags.',
      prompt: 'Read `task.md` in your working directory: it holds your task. End your reply with your final answer inside <answer></answer>.',
      workspace,
      files: [{ path: 'task.md', content: `${item.question}\n` }],
      timeoutMs: 120_000,
      purpose: 'probe',
    });
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    if (!/<answer>[^<]+<\/answer>/.test(result.finalText)) throw new Error(`unexpected answer: ${result.finalText}`);
    if (run > 0) {
      durations.push(milliseconds);
      loads.push(os.loadavg()[0]);
    }
  }
} finally {
  await simulator.close();
  rmSync(root, { recursive: true, force: true });
}
const sorted = [...durations].sort((left, right) => left - right);
const quantile = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
const cpus = os.cpus();
const report = {
  runs,
  medianMs: Math.round(quantile(0.5)),
  p90Ms: Math.round(quantile(0.9)),
  minMs: Math.round(sorted[0]),
  loadAverage: Number((loads.reduce((sum, load) => sum + load, 0) / loads.length).toFixed(2)),
  cores: cpus.length,
  machine: `${cpus.length} × ${cpus[0]?.model?.trim() ?? 'unknown CPU'}, Node ${process.version}`,
};
if (values.json) console.log(JSON.stringify(report));
else
  console.log(
    `codex exec per rollout, spawn to parsed answer (0 ms model latency, ${runs} runs): median ${report.medianMs} ms, p90 ${report.p90Ms} ms, min ${report.minMs} ms; 1-minute load ${report.loadAverage} on ${report.cores} cores (${report.machine})`,
  );
