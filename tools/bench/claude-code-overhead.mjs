#!/usr/bin/env node
// Harness overhead of @skillopt/backends-claude-code: the time from the runner's call (which spawns
// `claude -p`) to its parsed answer, with the simulated model answering at 0 ms (`sim serve`
// in process, no noise), so what is left is Claude Code's own start-up, its request building and
// its output, plus our workspace, config-directory and transcript work. One run at a time: median,
// p90, min and max of N runs, with the load average before and after (2 shared cores inflate
// every figure; say so beside it).
//
//   node tools/bench/claude-code-overhead.mjs --claude <path to claude> [--runs 10] [--placement claude-md|project-skill] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';

// The built packages (packages/*/dist), as every bench here.
const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const importBuilt = (folder) => import(pathToFileURL(path.join(repoRoot, 'packages', folder, 'dist', 'index.js')).href);
const { createBackend } = await importBuilt('backends-claude-code');
const { createSimulatorServer } = await importBuilt('backends-sim');

const { values } = parseArgs({
  options: {
    claude: { type: 'string', default: 'claude' },
    runs: { type: 'string', default: '10' },
    placement: { type: 'string', default: 'claude-md' },
    json: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const item = { id: 'bench-spider', taskType: 'number', question: 'How many legs does a spider have?', references: ['8'] };
const simulator = await createSimulatorServer({ items: [item], noise: 0 });
const backend = createBackend(
  { path: values.claude, base_url: simulator.origin, max_thinking_tokens: 0, skill_placement: values.placement },
  { environment: { ANTHROPIC_API_KEY: 'sim' } },
);
const runner = backend.createAgentRunner({ role: 'target', modelId: 'sim-target' });
const root = mkdtempSync(path.join(os.tmpdir(), 'claude-code-overhead-'));
const loadBefore = os.loadavg()[0];
const times = [];
try {
  // One warm-up run (the file-system cache, the CLI's first start), not counted.
  for (let index = -1; index < runs; index += 1) {
    const workspace = mkdtempSync(path.join(root, 'workspace-'));
    const started = process.hrtime.bigint();
    const result = await runner.run({
      skill: '# Skill\n- Give the final answer inside <answer></answer> tags.',
      prompt: `${item.question}\n\nGive your final answer inside <answer></answer> tags.`,
      workspace,
      timeoutMs: 120_000,
      purpose: 'rollout',
    });
    const milliseconds = Number(process.hrtime.bigint() - started) / 1e6;
    if (!/<answer>/.test(result.finalText)) throw new Error(`run ${index} answered without an answer tag: ${result.finalText}`);
    if (index >= 0) times.push(milliseconds);
  }
} finally {
  rmSync(root, { recursive: true, force: true });
  await simulator.close();
}
const sorted = [...times].sort((a, b) => a - b);
const at = (fraction) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))];
const report = {
  runs,
  placement: values.placement,
  medianMs: Math.round(at(0.5)),
  p90Ms: Math.round(at(0.9)),
  minMs: Math.round(sorted[0]),
  maxMs: Math.round(sorted[sorted.length - 1]),
  cores: os.cpus().length,
  loadAverageBefore: Number(loadBefore.toFixed(2)),
  loadAverageAfter: Number(os.loadavg()[0].toFixed(2)),
};
if (values.json) console.log(JSON.stringify(report));
else
  console.log(
    `claude-code harness overhead (${report.placement}, ${runs} runs, model at 0 ms): median ${report.medianMs} ms, p90 ${report.p90Ms} ms, min ${report.minMs} ms, max ${report.maxMs} ms; ${report.cores} cores, load ${report.loadAverageBefore} → ${report.loadAverageAfter}`,
  );
