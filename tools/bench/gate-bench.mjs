#!/usr/bin/env node
// The gate and the loop around it, measured on the SIMULATED model over several seeds (each seed
// sets backends.sim.seed and train.seed). Two uses, one bench:
// - gate strategies (the default): the strict and the paired gate on the demo, the selection
//   rollouts each spends and how often it accepts a candidate that is not better on the TEST split;
// - optimization quality (`--factors`): the defaults and one factor changed at a time, per world
//   (`--world demo|hard`), with the share of the oracle's gap each run closes on the test split, the
//   harmful and over-specific rules it accepted, its calls per accepted improvement and its latency
//   slots. In the hard world the oracle and every expected score come from the world model
//   (@skillopt/backends-sim's createHardWorld); in the demo world every failure can be fixed, so
//   the oracle is 1 − noise and the scores are measured.
// See tools/bench/README.md and docs/benchmarks.md ("Gate bench", "Optimization quality").
//
//   node tools/bench/gate-bench.mjs [--world demo|hard] [--seeds 1,2,3,4,5] [--strategies strict,paired]
//                                   [--factors all|defaults,gate=paired,…] [--latency-ms 0] [--set key=value …] [--json]
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { collectListenerWarnings, core, fixed, machineLine, numberList, runDemo, sim, table, WORLD_CONFIG_FILES } from './lib/demo-run.mjs';

/** One factor changed from the defaults at a time: its name and the config overrides that make it. */
const FACTORS = {
  defaults: [],
  'gate=paired': ['evaluation.gate_strategy=paired'],
  'lr=constant': ['optimizer.lr_scheduler=constant'],
  'lr=autonomous': ['optimizer.lr_control_mode=autonomous'],
  'slow-update=off': ['optimizer.use_slow_update=false'],
  'meta-skill=off': ['optimizer.use_meta_skill=false'],
  'update=rewrite-from-suggestions': ['optimizer.skill_update_mode=rewrite_from_suggestions'],
};
const USAGE =
  'node tools/bench/gate-bench.mjs [--world demo|hard] [--seeds 1,2,3,4,5] [--strategies strict,paired] [--factors all|<names>] [--latency-ms 0] [--set key=value …] [--json]';

const { values } = parseArgs({
  options: {
    world: { type: 'string', default: 'demo' },
    seeds: { type: 'string' },
    strategies: { type: 'string', default: 'strict,paired' },
    factors: { type: 'string' },
    'latency-ms': { type: 'string', default: '0' },
    set: { type: 'string', multiple: true, default: [] },
    json: { type: 'boolean', default: false },
    help: { type: 'boolean', short: 'h', default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  console.log(`factors: ${Object.keys(FACTORS).join(', ')} (or all)`);
  process.exit(0);
}
const configFile = WORLD_CONFIG_FILES[values.world];
if (configFile === undefined) {
  console.error(`--world is demo or hard, not "${values.world}"`);
  process.exit(2);
}
const factorNames = values.factors === undefined ? undefined : values.factors === 'all' ? Object.keys(FACTORS) : values.factors.split(',').filter(Boolean);
for (const name of factorNames ?? []) {
  if (FACTORS[name] === undefined) {
    console.error(`unknown factor "${name}": the factors are ${Object.keys(FACTORS).join(', ')} (or all)`);
    process.exit(2);
  }
}
// The quality bench's default fits in a few minutes; the gate comparison keeps its five seeds.
const seeds = numberList(values.seeds ?? (factorNames === undefined ? '1,2,3,4,5' : '1,2,3'), '--seeds');
const variants =
  factorNames === undefined
    ? values.strategies
        .split(',')
        .filter(Boolean)
        .map((strategy) => ({ name: strategy, overrides: [`evaluation.gate_strategy=${strategy}`] }))
    : factorNames.map((name) => ({ name, overrides: FACTORS[name] }));
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

/** The skill text a hash stands for, as the run rolled it out. */
function skillOf(parts, hash) {
  const skill = parts.skillsByHash.get(hash);
  if (skill === undefined) throw new Error(`no skill text seen for hash ${hash}`);
  return skill;
}

/**
 * What a skill is worth on the test split and what it holds: in the hard world, the world model's
 * exact expectation and its reading of the rules; in the demo world, the measured hard score and
 * the demo's own reading of harmful rules (it has no over-specific ones and no oracle but 1 − noise).
 */
function createJudge(parts, measured) {
  const settings = core.backendSectionFor(parts.config, sim.manifest);
  if (values.world !== 'hard')
    return {
      testScore: (skill) => measured.scoreText(skill),
      harmfulRules: (skill) => sim.readSkillRules(skill).harms.size,
      overSpecificRules: () => 0,
      oracle: async () => ({ score: 1 - settings.noise, conceptIds: ['every fixing rule'] }),
    };
  const world = sim.createHardWorld(sim.hardWorldSettings(settings), [...parts.splits.train, ...parts.splits.val, ...parts.splits.test]);
  return {
    testScore: async (skill) => world.expectedScore(parts.splits.test, skill),
    harmfulRules: (skill) => world.readSkill(skill).harmfulRules,
    overSpecificRules: (skill) => world.readSkill(skill).overSpecificRules,
    oracle: async (initialSkill) => world.oracle(parts.splits.test, initialSkill),
  };
}

/** The hard mean of each skill on the whole test split, each skill rolled out once (memory cache). */
function createTestScorer(parts) {
  const cache = core.createMemoryRolloutCache();
  const workDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-bench-test-'));
  const scores = new Map();
  const scoreText = async (skill) => {
    if (scores.has(skill)) return scores.get(skill);
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
    scores.set(skill, evaluation.summary.meanHard);
    return evaluation.summary.meanHard;
  };
  return {
    scoreText,
    score: (hash) => scoreText(skillOf(parts, hash)),
    dispose: () => rmSync(workDirectory, { recursive: true, force: true }),
  };
}

const runs = [];
for (const variant of variants) {
  for (const seed of seeds) {
    const { parts, summary, events, wallMs } = await runDemo(
      [...values.set, `backends.sim.seed=${seed}`, `train.seed=${seed}`, ...variant.overrides, `backends.sim.latency_ms=${latencyMs}`],
      'in-process',
      configFile,
    );
    const { counts, decisions } = readEvents(events);
    const scorer = createTestScorer(parts);
    const baseline = events.find((event) => event.type === 'item-rolled-out' && event.phase === 'baseline');
    if (baseline === undefined) throw new Error('the run rolled out no baseline');
    const initialSkill = skillOf(parts, baseline.skillHash);
    const bestSkill = skillOf(parts, summary.best.skillHash);
    let quality;
    try {
      const judge = createJudge(parts, scorer);
      for (const decision of decisions) {
        const candidate = skillOf(parts, decision.candidateHash);
        const incumbent = skillOf(parts, decision.incumbentHash);
        decision.candidateTest = await scorer.score(decision.candidateHash);
        decision.incumbentTest = await scorer.score(decision.incumbentHash);
        decision.candidateWorth = await judge.testScore(candidate);
        decision.incumbentWorth = await judge.testScore(incumbent);
        decision.harmfulRulesAdded = Math.max(0, judge.harmfulRules(candidate) - judge.harmfulRules(incumbent));
        decision.overSpecificRulesAdded = Math.max(0, judge.overSpecificRules(candidate) - judge.overSpecificRules(incumbent));
      }
      const oracle = await judge.oracle(initialSkill);
      const initial = await judge.testScore(initialSkill);
      const best = await judge.testScore(bestSkill);
      const accepted = decisions.filter((decision) => decision.accepted);
      const improvements = accepted.filter((decision) => decision.candidateWorth > decision.incumbentWorth).length;
      quality = {
        oracle: oracle.score,
        oracleRules: oracle.conceptIds,
        initial,
        best,
        gapClosed: oracle.score - initial <= 0 ? null : (best - initial) / (oracle.score - initial),
        worldFalseAccepts: accepted.length - improvements,
        improvements,
        harmfulRulesAccepted: accepted.reduce((total, decision) => total + decision.harmfulRulesAdded, 0),
        overSpecificRulesAccepted: accepted.reduce((total, decision) => total + decision.overSpecificRulesAdded, 0),
        optimizerCalls: summary.usage.byRole.optimizer?.calls ?? 0,
        targetCalls: summary.usage.byRole.target?.calls ?? 0,
        latencySlots: summary.latencySlots ?? null,
      };
    } finally {
      scorer.dispose();
    }
    const accepted = decisions.filter((decision) => decision.accepted);
    const rejected = decisions.filter((decision) => !decision.accepted);
    runs.push({
      variant: variant.name,
      seed,
      wallMs,
      ...counts,
      gates: decisions.length,
      // A gate that decided before it had evaluated the candidate on the whole selection split.
      earlyStops: decisions.filter((decision) => decision.itemsEvaluated < parts.splits.val.length).length,
      selectionItems: parts.splits.val.length,
      // Candidate items evaluated against the items the gates had (the split, once per gate): on rejected candidates and on all.
      rejectedItemsEvaluated: rejected.reduce((total, decision) => total + decision.itemsEvaluated, 0),
      rejectedItemsTotal: rejected.length * parts.splits.val.length,
      gateItemsTotal: decisions.length * parts.splits.val.length,
      accepted: accepted.length,
      falseAccepts: accepted.filter((decision) => decision.candidateTest <= decision.incumbentTest).length,
      rejected: rejected.length,
      falseRejects: rejected.filter((decision) => decision.candidateTest > decision.incumbentTest).length,
      testInitial: summary.test?.initial.hard ?? null,
      testBest: summary.test?.best.hard ?? null,
      quality,
      decisions,
    });
  }
}

if (values.json) {
  console.log(JSON.stringify({ machine: machineLine(), world: values.world, latencyMs, runs }, null, 2));
  process.exit(0);
}

const percent = (value) => (value === null || value === undefined ? '—' : `${fixed(value * 100)}%`);
const share = (part, whole) => (whole === 0 ? '—' : `${fixed((100 * part) / whole, 0)}%`);
const ratio = (part, whole) => (whole === 0 ? '—' : `${part}/${whole} (${fixed((100 * part) / whole, 0)}%)`);
const total = (list) => list.reduce((running, value) => running + value, 0);
const mean = (list) => (list.length === 0 ? null : total(list) / list.length);
const perImprovement = (calls, improvements) => (improvements === 0 ? '—' : fixed(calls / improvements, 0));
const variantHeader = factorNames === undefined ? 'gate' : 'factor';

console.log(
  `Gate bench — ${path.relative(process.cwd(), configFile) || configFile} (${values.world} world), SIMULATED model at ${latencyMs} ms, seeds ${seeds.join(',')} (backends.sim.seed = train.seed)`,
);
console.log(machineLine());
console.log('');
console.log('Per run');
console.log(
  table(
    [
      variantHeader,
      'seed',
      'gate rollouts',
      'selection rollouts',
      'gates',
      'early stops',
      'split evaluated, rejected',
      'split evaluated, all gates',
      'accepted',
      'false accepts',
      'rejected',
      'false rejects',
      'test initial → best',
      'gap closed',
      'latency slots',
      'wall',
    ],
    runs.map((run) => [
      run.variant,
      String(run.seed),
      String(run.gateRollouts),
      String(run.selectionRollouts),
      String(run.gates),
      String(run.earlyStops),
      share(run.rejectedItemsEvaluated, run.rejectedItemsTotal),
      share(run.gateItemsEvaluated, run.gateItemsTotal),
      String(run.accepted),
      String(run.falseAccepts),
      String(run.rejected),
      String(run.falseRejects),
      `${percent(run.testInitial)} → ${percent(run.testBest)}`,
      percent(run.quality.gapClosed),
      run.quality.latencySlots === null ? '—' : String(run.quality.latencySlots),
      `${fixed(run.wallMs / 1000, 2)} s`,
    ]),
  ),
);
console.log('');
console.log(`Totals over ${seeds.length} seeds`);
const sum = (list, key) => list.reduce((total, run) => total + run[key], 0);
console.log(
  table(
    [
      variantHeader,
      'gate rollouts',
      'per gate',
      'early stops',
      'split evaluated, rejected',
      'split evaluated, all gates',
      'selection rollouts',
      'accepted',
      'false-accept rate',
      'false-reject rate',
      'mean test best',
    ],
    variants.map(({ name }) => {
      const own = runs.filter((run) => run.variant === name);
      const gates = sum(own, 'gates');
      return [
        name,
        String(sum(own, 'gateRollouts')),
        gates === 0 ? '—' : fixed(sum(own, 'gateRollouts') / gates),
        ratio(sum(own, 'earlyStops'), gates),
        share(sum(own, 'rejectedItemsEvaluated'), sum(own, 'rejectedItemsTotal')),
        share(sum(own, 'gateItemsEvaluated'), sum(own, 'gateItemsTotal')),
        String(sum(own, 'selectionRollouts')),
        String(sum(own, 'accepted')),
        ratio(sum(own, 'falseAccepts'), sum(own, 'accepted')),
        ratio(sum(own, 'falseRejects'), sum(own, 'rejected')),
        percent(mean(own.map((run) => run.testBest ?? 0))),
      ];
    }),
  ),
);
console.log('');
console.log(
  `Optimization quality over ${seeds.length} seeds (${values.world} world; ${values.world === 'hard' ? 'expected scores of the world model' : 'measured test scores, oracle 1 − noise'})`,
);
const qualityOf = (own, key) => own.map((run) => run.quality[key]);
console.log(
  table(
    [
      variantHeader,
      'gap closed (mean)',
      'min – max',
      'test initial → best',
      'oracle',
      'false accepts (world)',
      'harmful accepted',
      'over-specific accepted',
      'optimizer calls / improvement',
      'target calls / improvement',
      'latency slots',
    ],
    variants.map(({ name }) => {
      const own = runs.filter((run) => run.variant === name);
      const gaps = qualityOf(own, 'gapClosed').filter((value) => value !== null);
      const improvements = total(qualityOf(own, 'improvements'));
      const accepted = sum(own, 'accepted');
      const slots = qualityOf(own, 'latencySlots').filter((value) => value !== null);
      return [
        name,
        percent(mean(gaps)),
        gaps.length === 0 ? '—' : `${percent(Math.min(...gaps))} – ${percent(Math.max(...gaps))}`,
        `${percent(mean(qualityOf(own, 'initial')))} → ${percent(mean(qualityOf(own, 'best')))}`,
        percent(mean(qualityOf(own, 'oracle'))),
        ratio(total(qualityOf(own, 'worldFalseAccepts')), accepted),
        String(total(qualityOf(own, 'harmfulRulesAccepted'))),
        String(total(qualityOf(own, 'overSpecificRulesAccepted'))),
        perImprovement(total(qualityOf(own, 'optimizerCalls')), improvements),
        perImprovement(total(qualityOf(own, 'targetCalls')), improvements),
        slots.length === 0 ? '—' : fixed(mean(slots), 0),
      ];
    }),
  ),
);
if (values.world === 'hard') {
  const first = runs[0]?.quality;
  console.log(`oracle rules (seed ${seeds[0]}): ${first?.oracleRules.join(', ') ?? '—'}`);
}
console.log('');
console.log('gate rollouts: selection-split rollouts run (not served from the cache) inside training steps, i.e. by the gate;');
console.log(`early stops: gates that decided before evaluating the candidate on all ${runs[0]?.selectionItems ?? '?'} selection items.`);
console.log('split evaluated: candidate items evaluated over the selection items the gates had (the split once per gate), on rejected');
console.log('candidates and on all gates; latency slots: sequential waves of calls of the run (early stopping in chunks adds some).');
console.log('selection rollouts: all of them, including the epoch-end slow update and the final scoring of the best skill.');
console.log("false accept: an accepted candidate whose hard score on the whole test split is not higher than the incumbent's;");
console.log('false reject: a rejected candidate whose test score is higher. Test scores: core evaluateSkill, memory cache.');
console.log('gap closed: (best − initial) / (oracle − initial) on the test split; false accepts (world): the same definition on the');
console.log("world model's expected test scores; improvement: an accepted candidate whose test score is higher than the incumbent's.");
warnings.report();
