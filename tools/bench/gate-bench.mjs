#!/usr/bin/env node
// The paired gate against the strict gate (evaluation.gate_strategy) on the demo, over several
// seeds (each seed sets backends.sim.seed and train.seed): the selection rollouts each spends and
// how often it accepts a candidate that is not better on the held-out TEST split. See
// tools/bench/README.md and docs/benchmarks.md ("Gate bench") for the definitions.
//
//   node tools/bench/gate-bench.mjs [--seeds 1,2,3,4,5] [--strategies strict,paired] [--latency-ms 0] [--set key=value …] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectListenerWarnings, core, fixed, machineLine, numberList, runDemo, table } from './lib/demo-run.mjs';

const { values } = parseArgs({
  options: {
    seeds: { type: 'string', default: '1,2,3,4,5' },
    strategies: { type: 'string', default: 'strict,paired' },
    'latency-ms': { type: 'string', default: '0' },
    set: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log('node tools/bench/gate-bench.mjs [--seeds 1,2,3,4,5] [--strategies strict,paired] [--latency-ms 0] [--set key=value …] [--json]');
  process.exit(0);
}
const seeds = numberList(values.seeds, '--seeds');
const strategies = values.strategies.split(',').filter(Boolean);
const latencyMs = numberList(values['latency-ms'], '--latency-ms')[0];
const warnings = collectListenerWarnings();

/**
 * Reads a run's events: selection rollouts actually run (item-rolled-out, phase 'selection',
 * cached false) — all of them, and those inside a training step, which are the gate's — and one
 * record per gate decision with the candidate's and the incumbent's skill hashes. The incumbent
 * is the other skill the step evaluated on the selection split (from the rollout cache or not).
 */
function readEvents(events) {
  let inStep = false;
  let selectionHashes = new Set();
  let candidate;
  const counts = { selectionRollouts: 0, gateRollouts: 0, gateItemsEvaluated: 0 };
  const decisions = [];
  for (const event of events) {
    if (event.type === 'step-started') {
      inStep = true;
      selectionHashes = new Set();
      candidate = undefined;
    } else if (event.type === 'step-finished') inStep = false;
    else if (event.type === 'item-rolled-out' && event.phase === 'selection') {
      if (inStep) selectionHashes.add(event.skillHash);
      if (!event.cached) {
        counts.selectionRollouts += 1;
        if (inStep) counts.gateRollouts += 1;
      }
    } else if (event.type === 'candidate-evaluated' && inStep) {
      candidate = event;
      counts.gateItemsEvaluated += event.itemsEvaluated;
    } else if (event.type === 'gate-decided' && inStep) {
      const incumbents = [...selectionHashes].filter((hash) => hash !== candidate?.candidateHash);
      if (candidate === undefined || incumbents.length !== 1)
        throw new Error(`step ${event.globalStep}: cannot tell the candidate and the incumbent apart (${[...selectionHashes].join(', ')})`);
      decisions.push({
        globalStep: event.globalStep,
        accepted: event.accepted,
        candidateHash: candidate.candidateHash,
        incumbentHash: incumbents[0],
        itemsEvaluated: candidate.itemsEvaluated,
      });
    }
  }
  return { counts, decisions };
}

/** The hard mean of each skill on the whole test split, each skill rolled out once (memory cache). */
function createTestScorer(parts) {
  const cache = core.createMemoryRolloutCache();
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-bench-test-'));
  const scores = new Map();
  return {
    async score(hash) {
      if (scores.has(hash)) return scores.get(hash);
      const skill = parts.skillsByHash.get(hash);
      if (skill === undefined) throw new Error(`no skill text seen for hash ${hash}`);
      const evaluation = await core.evaluateSkill({
        environment: parts.environment,
        skill,
        items: parts.splits.test,
        target: parts.target,
        cache,
        concurrency: 16,
        retries: 0,
        signal: new AbortController().signal,
        phase: 'test',
        workDirectory,
      });
      scores.set(hash, evaluation.summary.meanHard);
      return evaluation.summary.meanHard;
    },
    dispose: () => rmSync(workDirectory, { recursive: true, force: true }),
  };
}

const runs = [];
for (const strategy of strategies) {
  for (const seed of seeds) {
    const { parts, summary, events, wallMs } = await runDemo([
      ...values.set,
      `backends.sim.seed=${seed}`,
      `train.seed=${seed}`,
      `evaluation.gate_strategy=${strategy}`,
      `backends.sim.latency_ms=${latencyMs}`,
    ]);
    const { counts, decisions } = readEvents(events);
    const scorer = createTestScorer(parts);
    try {
      for (const decision of decisions) {
        decision.candidateTest = await scorer.score(decision.candidateHash);
        decision.incumbentTest = await scorer.score(decision.incumbentHash);
      }
    } finally {
      scorer.dispose();
    }
    const accepted = decisions.filter((decision) => decision.accepted);
    const rejected = decisions.filter((decision) => !decision.accepted);
    runs.push({
      strategy,
      seed,
      wallMs,
      ...counts,
      gates: decisions.length,
      // A gate that decided before it had evaluated the candidate on the whole selection split.
      earlyStops: decisions.filter((decision) => decision.itemsEvaluated < parts.splits.val.length).length,
      selectionItems: parts.splits.val.length,
      accepted: accepted.length,
      falseAccepts: accepted.filter((decision) => decision.candidateTest <= decision.incumbentTest).length,
      rejected: rejected.length,
      falseRejects: rejected.filter((decision) => decision.candidateTest > decision.incumbentTest).length,
      testInitial: summary.test?.initial.hard ?? null,
      testBest: summary.test?.best.hard ?? null,
      decisions,
    });
  }
}

if (values.json) {
  console.log(JSON.stringify({ machine: machineLine(), latencyMs, runs }, null, 2));
  process.exit(0);
}

const percent = (value) => (value === null ? '—' : `${fixed(value * 100)}%`);
const ratio = (part, whole) => (whole === 0 ? '—' : `${part}/${whole} (${fixed((100 * part) / whole, 0)}%)`);

console.log(`Gate bench — configs/demo/default.yaml, SIMULATED model at ${latencyMs} ms, seeds ${seeds.join(',')} (backends.sim.seed = train.seed)`);
console.log(machineLine());
console.log('');
console.log('Per run');
console.log(
  table(
    [
      'gate',
      'seed',
      'gate rollouts',
      'selection rollouts',
      'gates',
      'early stops',
      'accepted',
      'false accepts',
      'rejected',
      'false rejects',
      'test initial → best',
      'wall',
    ],
    runs.map((run) => [
      run.strategy,
      String(run.seed),
      String(run.gateRollouts),
      String(run.selectionRollouts),
      String(run.gates),
      String(run.earlyStops),
      String(run.accepted),
      String(run.falseAccepts),
      String(run.rejected),
      String(run.falseRejects),
      `${percent(run.testInitial)} → ${percent(run.testBest)}`,
      `${fixed(run.wallMs / 1000, 2)} s`,
    ]),
  ),
);
console.log('');
console.log(`Totals over ${seeds.length} seeds`);
const sum = (list, key) => list.reduce((total, run) => total + run[key], 0);
console.log(
  table(
    ['gate', 'gate rollouts', 'per gate', 'early stops', 'selection rollouts', 'accepted', 'false-accept rate', 'false-reject rate', 'mean test best'],
    strategies.map((strategy) => {
      const own = runs.filter((run) => run.strategy === strategy);
      const gates = sum(own, 'gates');
      return [
        strategy,
        String(sum(own, 'gateRollouts')),
        gates === 0 ? '—' : fixed(sum(own, 'gateRollouts') / gates),
        ratio(sum(own, 'earlyStops'), gates),
        String(sum(own, 'selectionRollouts')),
        String(sum(own, 'accepted')),
        ratio(sum(own, 'falseAccepts'), sum(own, 'accepted')),
        ratio(sum(own, 'falseRejects'), sum(own, 'rejected')),
        percent(own.reduce((total, run) => total + (run.testBest ?? 0), 0) / own.length),
      ];
    }),
  ),
);
console.log('');
console.log('gate rollouts: selection-split rollouts run (not served from the cache) inside training steps, i.e. by the gate;');
console.log(`early stops: gates that decided before evaluating the candidate on all ${runs[0]?.selectionItems ?? '?'} selection items.`);
console.log('selection rollouts: all of them, including the epoch-end slow update and the final scoring of the best skill.');
console.log("false accept: an accepted candidate whose hard score on the whole test split is not higher than the incumbent's;");
console.log('false reject: a rejected candidate whose test score is higher. Test scores: core evaluateSkill, memory cache.');
warnings.report();
