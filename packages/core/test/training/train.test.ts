import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, type RunEvent } from '@skillopt/contract';
import { readLedgerFile, summariseEntries, train } from '../../src/index';
import {
  GOOD_RULE,
  HARMFUL_RULE,
  createArithmeticEnvironment,
  createScriptedOptimizer,
  createScriptedTarget,
  trainingConfig,
} from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

const runDirectory = temporaryRunDirectories('skillopt-train-');

/** The totals of the run's ledger.jsonl, as a reader computes them. */
async function ledgerTotalsOf(directory: string) {
  return summariseEntries((await readLedgerFile(path.join(directory, 'ledger.jsonl'))).entries);
}

function readBestSkill(directory: string): string {
  return readFileSync(path.join(directory, 'best_skill.md'), 'utf8');
}

async function uninterruptedRun(config = trainingConfig()) {
  const directory = runDirectory();
  const target = createScriptedTarget();
  const optimizer = createScriptedOptimizer();
  const events: RunEvent[] = [];
  const summary = await train({
    config,
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model: target.model },
    optimizer: optimizer.model,
    runDirectory: directory,
    onEvent: (event) => events.push(event),
  });
  return { directory, summary, events, targetCalls: target.calls, optimizerCalls: optimizer.calls() };
}

describe('train', () => {
  it('rejects the harmful candidate, accepts the fixing one, and reports the lift on the test split', async () => {
    const { directory, summary, events } = await uninterruptedRun();
    expect(summary.rejectedCandidates).toBeGreaterThanOrEqual(1);
    expect(summary.acceptedCandidates).toBeGreaterThanOrEqual(1);
    expect(readBestSkill(directory)).toContain(GOOD_RULE);
    expect(readBestSkill(directory)).not.toContain(HARMFUL_RULE);
    expect(summary.test?.initial.hard).toBeLessThan(1);
    expect(summary.test?.best.hard).toBe(1);
    const gates = events.filter((event) => event.type === 'gate-decided');
    expect(gates.map((event) => event.type === 'gate-decided' && event.accepted)).toEqual(expect.arrayContaining([true, false]));
    expect(events.at(-1)?.type).toBe('run-finished');
    // Every artifact of the run directory is there.
    for (const file of [
      'config.json',
      'runtime_state.json',
      'history.jsonl',
      'summary.json',
      'events.jsonl',
      'ledger.jsonl',
      'skills/skill_v0000.md',
      'steps/step_0001/step_record.json',
    ])
      expect(() => readFileSync(path.join(directory, file))).not.toThrow();
    // The rollouts' scratch space does not outlive the run.
    expect(() => readFileSync(path.join(directory, 'work'))).toThrow(/ENOENT/);
    const ledger = { totals: await ledgerTotalsOf(directory) };
    expect(ledger.totals.byRole.optimizer?.calls).toBeGreaterThan(0);
    expect(ledger.totals.byRole.target?.calls).toBeGreaterThan(0);
    // Rollouts served from the rollout cache are in the ledger as hits, at no cost.
    expect(ledger.totals.byRole.target?.cacheHits).toBe(summary.rollouts.cacheHits);
  });

  it("prices the calls from the config's prices.overrides, which win over the packages' table", async () => {
    const directory = runDirectory();
    const target = createScriptedTarget();
    const optimizer = createScriptedOptimizer();
    const price = { inputUsdPerMillionTokens: 1_000_000, outputUsdPerMillionTokens: 0, source: 'the package', asOf: '2026-01-01' };
    await train({
      config: trainingConfig({
        train: { num_epochs: 1, batch_size: 6, seed: 7 },
        prices: {
          overrides: [
            {
              provider: 'test-double',
              model: 'scripted-target',
              input_usd_per_million: 2_000_000,
              output_usd_per_million: 0,
              source: 'ours',
              as_of: '2026-12-01',
            },
          ],
        },
      }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: target.model },
      optimizer: optimizer.model,
      runDirectory: directory,
      priceTable: [{ provider: 'test-double', modelId: 'scripted-target', ...price }],
    });
    const entries = (await readLedgerFile(path.join(directory, 'ledger.jsonl'))).entries;
    const targetCalls = entries.filter((entry) => entry.role === 'target' && !entry.cacheHit && entry.outcome === 'succeeded');
    expect(targetCalls.length).toBeGreaterThan(0);
    // $2 a token from the override, not $1 from the table.
    for (const entry of targetCalls) expect(entry.costUsd).toBeCloseTo(entry.usage.inputTokens * 2, 6);
    // The optimizer's model is in neither: its cost is unknown, not zero.
    expect(entries.filter((entry) => entry.role === 'optimizer').every((entry) => entry.costUsd === null)).toBe(true);
  });

  it("tests the initial, the best and the final skill, by task type, and records every step's learning rate", async () => {
    const { directory, summary, events } = await uninterruptedRun();
    const test = summary.test!;
    expect(test.final).toMatchObject({ scored: 8, excluded: 0 });
    expect(test.initial).toMatchObject({ scored: 8, excluded: 0 });
    expect(test.byTaskType).toEqual([{ taskType: 'sum', items: 8, initial: test.initial.hard, best: test.best.hard, final: test.final?.hard }]);
    expect(events.at(-1)).toMatchObject({
      type: 'run-finished',
      testScoreInitial: test.initial.hard,
      testScoreBest: test.best.hard,
      testScoreFinal: test.final?.hard,
    });
    // Each distinct skill text is tested once: a final skill equal to another is not evaluated again.
    const testRollouts = events.filter((event) => event.type === 'item-rolled-out' && event.phase === 'test');
    const testedSkills = new Set(testRollouts.map((event) => event.type === 'item-rolled-out' && event.skillHash));
    expect(testRollouts).toHaveLength(8 * testedSkills.size);
    expect(testedSkills.size).toBeGreaterThanOrEqual(2);
    const records = readFileSync(path.join(directory, 'history.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { step: number; learningRate?: number });
    expect(records).toHaveLength(4);
    // learning_rate 2 decaying to min_learning_rate 1 over the run's four steps.
    expect(records.map((record) => record.learningRate)).toEqual([2, expect.any(Number), expect.any(Number), 1]);
    expect(summary.simulatedRoles).toEqual([]);
  });

  it('refuses an env with an empty val split, as run setup does, when called without it', async () => {
    const environment = createArithmeticEnvironment();
    const withoutVal = { ...environment, loadSplit: async (split: 'train' | 'val' | 'test') => (split === 'val' ? [] : environment.loadSplit(split)) };
    await expect(
      train({
        config: trainingConfig(),
        environment: withoutVal,
        target: { kind: 'chat', model: createScriptedTarget().model },
        optimizer: createScriptedOptimizer().model,
        runDirectory: runDirectory(),
      }),
    ).rejects.toMatchObject({ code: ERROR_CODES.dataInvalid, details: { split: 'val', environmentId: 'arithmetic' } });
  });

  it('gives the same best skill for the same seed', async () => {
    const first = await uninterruptedRun();
    const second = await uninterruptedRun();
    expect(readBestSkill(second.directory)).toBe(readBestSkill(first.directory));
    expect(second.summary.best).toEqual(first.summary.best);
  });

  it('never rolls out the same skill on the same item twice', async () => {
    const { targetCalls, summary } = await uninterruptedRun();
    expect(new Set(targetCalls).size).toBe(targetCalls.length);
    expect(summary.rollouts.cacheHits).toBeGreaterThan(0);
  });

  it('resumes after an abort with the same best skill and without repeating a finished rollout', async () => {
    const reference = await uninterruptedRun();
    for (const abortAfterTargetCalls of [5, 30, 60]) {
      const directory = runDirectory();
      const controller = new AbortController();
      const firstTarget = createScriptedTarget();
      // Calls whose reply reached the trainer before the abort; those in flight when it fired
      // are abandoned (the abort is prompt) and may be redone.
      const completedBeforeAbort: string[] = [];
      const countingModel = {
        ...firstTarget.model,
        generate: async (request: Parameters<typeof firstTarget.model.generate>[0]) => {
          const reply = await firstTarget.model.generate(request);
          if (controller.signal.aborted) return reply;
          if (firstTarget.calls.length >= abortAfterTargetCalls) controller.abort(new Error('stopped by the test'));
          else completedBeforeAbort.push(firstTarget.calls.at(-1) as string);
          return reply;
        },
      };
      await expect(
        train({
          config: trainingConfig(),
          environment: createArithmeticEnvironment(),
          target: { kind: 'chat', model: countingModel },
          optimizer: createScriptedOptimizer().model,
          runDirectory: directory,
          signal: controller.signal,
        }),
      ).rejects.toThrow('stopped by the test');

      const secondTarget = createScriptedTarget();
      const resumed = await train({
        config: trainingConfig(),
        environment: createArithmeticEnvironment(),
        target: { kind: 'chat', model: secondTarget.model },
        optimizer: createScriptedOptimizer().model,
        runDirectory: directory,
        resume: true,
      });
      expect(readBestSkill(directory)).toBe(readBestSkill(reference.directory));
      expect(resumed.best.skillHash).toBe(reference.summary.best.skillHash);
      // Rollouts that finished before the abort come from the cache, not from the target again.
      expect(completedBeforeAbort.length).toBeGreaterThan(0);
      expect(secondTarget.calls.filter((call) => completedBeforeAbort.includes(call))).toEqual([]);
    }
  });

  it('stops on a non-retryable optimizer error mid-step and resumes to the same best skill', async () => {
    const reference = await uninterruptedRun();
    const directory = runDirectory();
    const events: RunEvent[] = [];
    const error = await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer({ failOnCall: 3 }).model,
      runDirectory: directory,
      onEvent: (event) => events.push(event),
    }).catch((caught: unknown) => caught);
    expect(SkillOptError.isInstance(error) && error.code).toBe(ERROR_CODES.providerAuthentication);
    const stopped = events.find((event) => event.type === 'run-stopped');
    expect(stopped).toMatchObject({ reason: 'error', resumeCommand: expect.stringContaining('--resume') });

    await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      resume: true,
    });
    expect(readBestSkill(directory)).toBe(readBestSkill(reference.directory));
  });

  it('excludes items whose infrastructure keeps failing instead of scoring them as failures', async () => {
    const directory = runDirectory();
    const target = createScriptedTarget({ failingItemQuestions: new Set(['What is 21 plus 2?']) });
    const summary = await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: target.model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
    });
    expect(summary.excludedItems.length).toBeGreaterThan(0);
    expect(summary.excludedItems.every((item) => item.code === ERROR_CODES.providerUnavailable)).toBe(true);
    // The excluded items are in no mean: the best skill still scores a clean 1 on what was scored.
    expect(summary.best.selectionHard).toBe(1);
    expect(summary.test?.best.hard).toBe(1);
  });

  it('stops at a step boundary when a budget is spent and resumes with a higher one', async () => {
    const reference = await uninterruptedRun();
    const directory = runDirectory();
    const tight = trainingConfig({ budget: { optimizer: { max_calls: 2 } } });
    const error = await train({
      config: tight,
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
    }).catch((caught: unknown) => caught);
    expect(SkillOptError.isInstance(error) && error.code).toBe(ERROR_CODES.budgetSpent);
    const state = JSON.parse(readFileSync(path.join(directory, 'runtime_state.json'), 'utf8'));
    expect(state.lastCompletedStep).toBeGreaterThanOrEqual(1);

    await train({
      config: trainingConfig({ budget: { optimizer: { max_calls: 1000 } } }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      resume: true,
    });
    expect(readBestSkill(directory)).toBe(readBestSkill(reference.directory));
  });

  it('with budget.stop_mid_step, stops before the call that would pass a total budget, within the first step', async () => {
    const directory = runDirectory();
    const error = await train({
      config: trainingConfig({ budget: { total: { max_calls: 3 }, stop_mid_step: true } }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
    }).catch((caught: unknown) => caught);
    expect(SkillOptError.isInstance(error) && error.code).toBe(ERROR_CODES.budgetSpent);
    expect((error as SkillOptError).details).toMatchObject({ role: 'total', limit: 'maxCalls', max: 3, used: 3 });
    const ledgerLines = readFileSync(path.join(directory, 'ledger.jsonl'), 'utf8').trim().split('\n');
    // Three calls were let through, run at once, and none after: calls in flight count against the limit.
    expect(ledgerLines.filter((line) => JSON.parse(line).line === 'call-started')).toHaveLength(3);
    expect(existsSync(path.join(directory, 'runtime_state.json'))).toBe(false);
  });

  it('runs with the paired gate', async () => {
    const { summary, directory } = await uninterruptedRun(trainingConfig({ evaluation: { gate_strategy: 'paired', paired_chunk_size: 4 } }));
    expect(readBestSkill(directory)).toContain(GOOD_RULE);
    expect(summary.sequentialWaves).toBeGreaterThan(0);
  });

  it('with strict_early_stop, makes the same decisions on fewer selection items, and marks a rejected score partial', async () => {
    const gated = async (earlyStop: boolean) => {
      const run = await uninterruptedRun(trainingConfig({ evaluation: { strict_early_stop: earlyStop, paired_chunk_size: 2 } }));
      const decisions = run.events.flatMap((event) => (event.type === 'gate-decided' ? [{ step: event.globalStep, accepted: event.accepted }] : []));
      const evaluated = run.events.flatMap((event) => (event.type === 'candidate-evaluated' ? [event.itemsEvaluated] : []));
      const history = readFileSync(path.join(run.directory, 'history.jsonl'), 'utf8')
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      return { ...run, decisions, evaluated, history };
    };
    const full = await gated(false);
    const early = await gated(true);
    expect(early.decisions).toEqual(full.decisions);
    expect(readBestSkill(early.directory)).toBe(readBestSkill(full.directory));
    const rejected = full.decisions.flatMap((decision, index) => (decision.accepted ? [] : [index]));
    expect(rejected.length).toBeGreaterThan(0);
    // The val split has 8 items: the full gate evaluates every candidate on all of them.
    expect(full.evaluated.every((count) => count === 8)).toBe(true);
    for (const index of rejected) expect(early.evaluated[index]).toBeLessThan(8);
    for (const [index, decision] of early.decisions.entries()) if (decision.accepted) expect(early.evaluated[index]).toBe(8);
    // The step record says the rejected candidate's score is partial; a whole-split score is not marked.
    const gates = early.history.filter((record) => record.gate !== undefined).map((record) => record.gate);
    expect(gates.filter((gate) => !gate.accepted).every((gate) => gate.partial === true && gate.itemsEvaluated < gate.itemsTotal)).toBe(true);
    expect(gates.filter((gate) => gate.accepted).every((gate) => gate.partial === undefined)).toBe(true);
    expect(full.history.every((record) => record.gate?.partial === undefined)).toBe(true);
  });

  it('puts the slow update to the same gate when slow_update_gate_with_selection is on', async () => {
    const { events, directory } = await uninterruptedRun(
      trainingConfig({ optimizer: { slow_update_gate_with_selection: true, learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 } }),
    );
    const slowUpdateGates = events.filter((event) => (event.type === 'candidate-evaluated' || event.type === 'gate-decided') && event.stage === 'slow-update');
    expect(slowUpdateGates.map((event) => event.type)).toEqual(['candidate-evaluated', 'gate-decided']);
    expect(JSON.parse(readFileSync(path.join(directory, 'slow_update/epoch_02/gate_decision.json'), 'utf8'))).toMatchObject({ strategy: 'strict' });
  });

  it('repairs optimizer replies with JSON slips instead of re-asking, and records how many were repaired', async () => {
    const reference = await uninterruptedRun();
    const directory = runDirectory();
    const optimizer = createScriptedOptimizer({ trailingCommas: true });
    await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer: optimizer.model,
      runDirectory: directory,
    });
    // The same calls as a run whose replies are clean: not one re-ask.
    expect(optimizer.calls()).toBe(reference.optimizerCalls);
    expect(readBestSkill(directory)).toBe(readBestSkill(reference.directory));
    const record = JSON.parse(readFileSync(path.join(directory, 'steps/step_0001/step_record.json'), 'utf8'));
    expect(record.repairedReplies).toBe(record.optimizerCalls);
    const referenceRecord = JSON.parse(readFileSync(path.join(reference.directory, 'steps/step_0001/step_record.json'), 'utf8'));
    expect(referenceRecord.repairedReplies).toBeUndefined();
  });

  it('records an unusable optimizer reply as a failed stage and keeps training', async () => {
    // The optimizer double has no answer for rewrite prompts: every rewrite fails after its re-ask.
    const { summary, events, directory } = await uninterruptedRun(
      trainingConfig({ optimizer: { skill_update_mode: 'rewrite_from_suggestions', learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 } }),
    );
    expect(summary.stageFailures.map((failure) => [failure.stage, failure.prompt])).toContainEqual(['rewrite', 'rewrite-from-suggestions']);
    expect(events.some((event) => event.type === 'stage-failed')).toBe(true);
    expect(summary.acceptedCandidates).toBe(0);
    const record = JSON.parse(readFileSync(path.join(directory, 'steps/step_0001/step_record.json'), 'utf8'));
    expect(record).toMatchObject({ outcome: 'stage-failed', stageFailure: { stage: 'rewrite', prompt: 'rewrite-from-suggestions', attempts: 2 } });
  });

  it('puts skill-aware appendix notes into the candidate, where the gate judges them', async () => {
    const { directory } = await uninterruptedRun(
      trainingConfig({ optimizer: { use_skill_aware_reflection: true, learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 } }),
    );
    const best = readBestSkill(directory);
    expect(best).toContain(GOOD_RULE);
    expect(best).toContain('Check the answer is written the way the rules ask.');
    expect(best).toContain('<!-- APPENDIX_START -->');
  });

  it('lets the optimizer decide the learning rate under lr_control_mode: autonomous', async () => {
    const { directory } = await uninterruptedRun(
      trainingConfig({ optimizer: { lr_control_mode: 'autonomous', learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 } }),
    );
    const ledger = { totals: await ledgerTotalsOf(directory) };
    expect(ledger.totals.byPurpose['lr-decide']?.calls).toBeGreaterThan(0);
    expect(readBestSkill(directory)).toContain(GOOD_RULE);
  });

  it('goes straight from the rollouts to the rewrite in full_rewrite_minibatch mode', async () => {
    const { directory, summary } = await uninterruptedRun(
      trainingConfig({ optimizer: { skill_update_mode: 'full_rewrite_minibatch', learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 } }),
    );
    const ledger = { totals: await ledgerTotalsOf(directory) };
    expect(ledger.totals.byPurpose.rewrite?.calls).toBeGreaterThan(0);
    for (const purpose of ['reflect', 'merge', 'rank', 'lr-decide']) expect(ledger.totals.byPurpose[purpose]).toBeUndefined();
    // The optimizer double has no answer for rewrite prompts: each step's rewrite fails and is recorded.
    expect(summary.stageFailures.map((failure) => [failure.stage, failure.prompt])).toContainEqual(['rewrite', 'full-rewrite']);
  });
});
