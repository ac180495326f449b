import { estimateRunCalls, hierarchicalMergeCalls } from '../../src/ledger/index';

describe('hierarchicalMergeCalls', () => {
  it('matches the upstream H(n) with K = 8', () => {
    const h = (n: number) => hierarchicalMergeCalls(n, 8);
    expect([0, 1].map(h)).toEqual([0, 0]);
    expect([2, 3, 8].map(h)).toEqual([1, 1, 1]);
    expect(h(9)).toBe(2);
    expect([10, 16].map(h)).toEqual([3, 3]);
    expect(h(17)).toBe(3);
    expect(h(24)).toBe(4);
  });

  it('clamps a merge batch size of 1 to 2 instead of looping forever', () => {
    expect(hierarchicalMergeCalls(4, 1)).toBe(hierarchicalMergeCalls(4, 2));
    expect(hierarchicalMergeCalls(4, 2)).toBe(3);
  });
});

describe('estimateRunCalls', () => {
  // The worked example of the upstream cost baseline: SearchQA defaults, 25 failures of 40.
  const searchQaDefaults = {
    trainSize: 400,
    batchSize: 40,
    epochs: 4,
    minibatchSize: 8,
    mergeBatchSize: 8,
    selectionSize: 200,
    testSize: 1400,
    slowUpdateSamples: 20,
    expectedFailureRate: 25 / 40,
  };

  it('reproduces the per-step and per-run figures of the worked example', () => {
    const estimate = estimateRunCalls(searchQaDefaults);
    expect(estimate.stepsPerEpoch).toBe(10);
    expect(estimate.totalSteps).toBe(40);
    expect(estimate.perStep).toMatchObject({ analystCalls: 6, mergeCalls: 3, rankingCalls: 1, learningRateCalls: 0, rewriteCalls: 0, optimizerCalls: 10 });
    expect(estimate.perStep).toMatchObject({ trainEpisodes: 40, selectionEpisodes: 200, targetEpisodes: 240, targetCalls: 240 });
    expect(estimate.perRun.optimizerCalls).toBe(406);
    expect(estimate.perRun.breakdown).toEqual({
      stepOptimizerCalls: 400,
      epochEndOptimizerCalls: 6,
      baselineEpisodes: 200,
      stepEpisodes: 9600,
      epochEndEpisodes: 120,
      finalSelectionEpisodes: 200,
      testEpisodes: 4200,
    });
    expect(estimate.perRun.targetEpisodes).toBe(14_320);
    expect(estimate.assumptions.join(' ')).toContain('63% of train rollouts fail');
  });

  it('follows the update mode, learning-rate control and failure-only analysis', () => {
    const fullRewrite = estimateRunCalls({ ...searchQaDefaults, updateMode: 'full_rewrite_minibatch', lrControlMode: 'autonomous' });
    expect(fullRewrite.perStep).toMatchObject({ rankingCalls: 0, learningRateCalls: 0, rewriteCalls: 0, optimizerCalls: 9 });
    const rewrite = estimateRunCalls({ ...searchQaDefaults, updateMode: 'rewrite_from_suggestions', lrControlMode: 'autonomous' });
    expect(rewrite.perStep).toMatchObject({ rankingCalls: 1, learningRateCalls: 1, rewriteCalls: 1, optimizerCalls: 12 });
    const failureOnly = estimateRunCalls({ ...searchQaDefaults, failureOnly: true });
    // 25 failures → 4 analysts, merges H(4) = 1 with no success group, plus ranking.
    expect(failureOnly.perStep).toMatchObject({ analystCalls: 4, mergeCalls: 1, optimizerCalls: 6 });
  });

  it('counts short last batches and fresh batches when accumulation outruns the split', () => {
    // 100 items, B = 40: batches 40, 40, 20 in one pass.
    const short = estimateRunCalls({ ...searchQaDefaults, trainSize: 100, epochs: 1, testSize: 0, useSlowUpdate: false, useMetaSkill: false });
    expect(short.stepsPerEpoch).toBe(3);
    expect(short.perRun.breakdown.stepEpisodes).toBe(100 + 3 * 200);
    expect(short.perRun.breakdown.finalSelectionEpisodes).toBe(0);
    // 30 items, B = 40, A = 2: one step of two batches, 30 then a fresh shuffle of 30.
    const outrun = estimateRunCalls({ ...searchQaDefaults, trainSize: 30, accumulation: 2, epochs: 1, testSize: 0 });
    expect(outrun.perStep.trainEpisodes).toBe(60);
  });

  it('adds comparison rollouts for the meta skill only when the slow update does not provide them', () => {
    const metaOnly = estimateRunCalls({ ...searchQaDefaults, useSlowUpdate: false, useMetaSkill: true });
    expect(metaOnly.perRun.breakdown).toMatchObject({ epochEndOptimizerCalls: 3, epochEndEpisodes: 3 * 40 });
    const gated = estimateRunCalls({ ...searchQaDefaults, slowUpdateGated: true });
    expect(gated.perRun.breakdown.epochEndEpisodes).toBe(3 * (40 + 200));
  });

  it('rejects counts that make no sense', () => {
    expect(() => estimateRunCalls({ ...searchQaDefaults, batchSize: 0 })).toThrow(/batchSize/);
    expect(() => estimateRunCalls({ ...searchQaDefaults, expectedFailureRate: 1.5 })).toThrow(/expectedFailureRate/);
  });

  it('estimates the critical path in latency slots at the given concurrency', () => {
    // Two steps of 6 (3 failures, 3 successes each): train rollouts 6, two analysts, one merge, one
    // ranking call, the candidate's 8 selection rollouts; the baseline's 8 beside step 1's batch.
    const small = {
      trainSize: 12,
      batchSize: 6,
      epochs: 1,
      minibatchSize: 4,
      mergeBatchSize: 2,
      selectionSize: 8,
      expectedFailureRate: 0.5,
      analystConcurrency: 2,
    };
    // At 4 in flight: a step is 2 + 1 + 1 + 1 + 2 slots; the baseline adds 4 − 2 slots to step 1's rollouts.
    expect(estimateRunCalls({ ...small, rolloutConcurrency: 4 }).latencySlots).toBe(2 * 7 + 2);
    // At 64 everything of one stage fits in one slot, and the baseline hides entirely behind step 1's batch.
    expect(estimateRunCalls({ ...small, rolloutConcurrency: 64 }).latencySlots).toBe(2 * 5);
    expect(() => estimateRunCalls({ ...small, rolloutConcurrency: 0 })).toThrow(RangeError);
  });
});
