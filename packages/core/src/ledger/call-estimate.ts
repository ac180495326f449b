import { aggregationWaves } from '@skillopt/optimizer';
/**
 * How many model calls a run will make, from counts alone, for the CLI to print before the first
 * paid call. It follows the upstream accounting (upstream-core.md §9) with its assumptions stated
 * in `assumptions`, and returns upper-bound-leaning figures: the selection rollout is counted
 * every step although a candidate already evaluated is served from the cache.
 */
export interface CallEstimateInput {
  trainSize: number;
  /** Items per rollout batch (B). */
  batchSize: number;
  /** Batches per step (A); default 1. */
  accumulation?: number;
  epochs: number;
  /** Trajectories per analyst call (M). */
  minibatchSize: number;
  /** Patches per merge call; upstream clamps it to at least 2 (K). */
  mergeBatchSize: number;
  /** Items of the selection (gate) set (V). */
  selectionSize: number;
  /** Items of the test split (T); 0 when the run evaluates no test set. */
  testSize?: number;
  /** Items per longitudinal comparison at epoch end (N). */
  slowUpdateSamples?: number;
  useSlowUpdate?: boolean;
  useMetaSkill?: boolean;
  /** Gated slow update: the slow-update candidate also gets a selection rollout. Default false. */
  slowUpdateGated?: boolean;
  /** Only failures are analysed. Default false. */
  failureOnly?: boolean;
  /** The expected share of failed train rollouts; default 0.5. Analyst calls depend on it. */
  expectedFailureRate?: number;
  updateMode?: 'patch' | 'rewrite_from_suggestions' | 'full_rewrite_minibatch';
  /** `agent`: one agent run per step edits the skill, in place of the analyst and merge calls. Default `chat`. */
  optimizerMode?: 'chat' | 'agent';
  lrControlMode?: 'fixed' | 'none' | 'autonomous';
  /** Whether the merged pool usually exceeds the edit budget, costing a ranking call; default true. */
  expectRankingCall?: boolean;
  /** Target model calls per episode (τ): 1 for single-turn chat, more for tool loops. Default 1. */
  targetCallsPerEpisode?: number;
  /** Roll out the final skill on the selection set when it differs from the best. Default true. */
  finalSelectionCheck?: boolean;
  /** Test rollouts: initial, best and (when it differs) final skill, so 3; 2 when final = best. Default 3. */
  testEvaluations?: number;
  /** Rollouts in flight at once, for the latency-slot estimate. Default 16. */
  rolloutConcurrency?: number;
  /** Reflection and merge calls in flight at once (`gradient.analyst_workers`). Default 16. */
  analystConcurrency?: number;
}

export interface StepCallEstimate {
  /** With an agent as the optimizer: its run (one a step); the analyst and merge calls are then 0. */
  agentRuns: number;
  analystCalls: number;
  mergeCalls: number;
  learningRateCalls: number;
  rankingCalls: number;
  rewriteCalls: number;
  optimizerCalls: number;
  trainEpisodes: number;
  selectionEpisodes: number;
  targetEpisodes: number;
  targetCalls: number;
}

export interface RunCallEstimate {
  stepsPerEpoch: number;
  totalSteps: number;
  /** A typical full step (the first of an epoch). */
  perStep: StepCallEstimate;
  perRun: {
    optimizerCalls: number;
    targetEpisodes: number;
    targetCalls: number;
    /** Where the figures come from. */
    breakdown: {
      stepOptimizerCalls: number;
      epochEndOptimizerCalls: number;
      baselineEpisodes: number;
      stepEpisodes: number;
      epochEndEpisodes: number;
      finalSelectionEpisodes: number;
      testEpisodes: number;
    };
  };
  /**
   * The run's critical path in call latencies, estimated: the latency slots its calls take at the
   * given concurrency if each call took one unit of time (wall time at latency L is about this × L,
   * plus the loop's own work). Under the same assumptions as the call counts.
   */
  latencySlots: number;
  /** Plain sentences for the CLI to print under the figures. */
  assumptions: string[];
}

/**
 * Merge calls to reduce `patchCount` patches to one, `merge_batch_size` at a time (§9's H(n)):
 * each level merges chunks of K, a chunk of one passes through free.
 */
export function hierarchicalMergeCalls(patchCount: number, mergeBatchSize: number): number {
  const k = Math.max(2, Math.floor(mergeBatchSize));
  let calls = 0;
  let remaining = patchCount;
  while (remaining > 1) {
    const chunks = Math.ceil(remaining / k);
    calls += chunks - (remaining % k === 1 ? 1 : 0);
    remaining = chunks;
  }
  return calls;
}

/** The per-step and per-run call estimate; see CallEstimateInput for the defaults. */
export function estimateRunCalls(input: CallEstimateInput): RunCallEstimate {
  requireCount('trainSize', input.trainSize, 1);
  requireCount('batchSize', input.batchSize, 1);
  requireCount('epochs', input.epochs, 1);
  requireCount('minibatchSize', input.minibatchSize, 1);
  requireCount('mergeBatchSize', input.mergeBatchSize, 1);
  requireCount('selectionSize', input.selectionSize, 0);
  const accumulation = input.accumulation ?? 1;
  requireCount('accumulation', accumulation, 1);
  const testSize = input.testSize ?? 0;
  requireCount('testSize', testSize, 0);
  const slowUpdateSamples = input.slowUpdateSamples ?? 20;
  requireCount('slowUpdateSamples', slowUpdateSamples, 0);
  const failureRate = input.expectedFailureRate ?? 0.5;
  if (!(failureRate >= 0 && failureRate <= 1)) throw new RangeError(`expectedFailureRate must be between 0 and 1, got ${failureRate}`);
  const tau = input.targetCallsPerEpisode ?? 1;
  if (!(tau > 0)) throw new RangeError(`targetCallsPerEpisode must be above 0, got ${tau}`);
  const testEvaluations = input.testEvaluations ?? 3;
  const updateMode = input.updateMode ?? 'patch';
  const lrControlMode = input.lrControlMode ?? 'fixed';
  const useSlowUpdate = input.useSlowUpdate ?? true;
  const useMetaSkill = input.useMetaSkill ?? true;
  const fullRewrite = updateMode === 'full_rewrite_minibatch';
  const agent = input.optimizerMode === 'agent';

  const stepsPerEpoch = Math.ceil(input.trainSize / (input.batchSize * accumulation));
  const totalSteps = stepsPerEpoch * input.epochs;
  const batchSizes = epochBatchSizes(input.trainSize, input.batchSize, stepsPerEpoch * accumulation);

  /** The analysts' patches of a step's batches: one analyst call per minibatch of failures or successes. */
  function stepPatches(sizes: readonly number[]): { failurePatches: number; successPatches: number } {
    let failurePatches = 0;
    let successPatches = 0;
    for (const size of sizes) {
      const failures = Math.round(size * failureRate);
      const successes = input.failureOnly === true ? 0 : size - failures;
      failurePatches += Math.ceil(failures / input.minibatchSize);
      successPatches += Math.ceil(successes / input.minibatchSize);
    }
    return { failurePatches, successPatches };
  }

  function stepEstimate(sizes: readonly number[]): StepCallEstimate {
    const { failurePatches, successPatches } = agent ? { failurePatches: 0, successPatches: 0 } : stepPatches(sizes);
    const agentRuns = agent ? 1 : 0;
    const analystCalls = failurePatches + successPatches;
    const mergeCalls =
      hierarchicalMergeCalls(failurePatches, input.mergeBatchSize) +
      hierarchicalMergeCalls(successPatches, input.mergeBatchSize) +
      (failurePatches >= 1 && successPatches >= 1 ? 1 : 0);
    const learningRateCalls = lrControlMode === 'autonomous' && !fullRewrite ? 1 : 0;
    const rankingCalls = !fullRewrite && (input.expectRankingCall ?? true) ? 1 : 0;
    const rewriteCalls = updateMode === 'rewrite_from_suggestions' ? 1 : 0;
    const trainEpisodes = sizes.reduce((sum, size) => sum + size, 0);
    const selectionEpisodes = input.selectionSize;
    return {
      agentRuns,
      analystCalls,
      mergeCalls,
      learningRateCalls,
      rankingCalls,
      rewriteCalls,
      optimizerCalls: agentRuns + analystCalls + mergeCalls + learningRateCalls + rankingCalls + rewriteCalls,
      trainEpisodes,
      selectionEpisodes,
      targetEpisodes: trainEpisodes + selectionEpisodes,
      targetCalls: (trainEpisodes + selectionEpisodes) * tau,
    };
  }

  const rolloutConcurrency = input.rolloutConcurrency ?? 16;
  const analystConcurrency = input.analystConcurrency ?? 16;
  requireCount('rolloutConcurrency', rolloutConcurrency, 1);
  requireCount('analystConcurrency', analystConcurrency, 1);
  const rolloutSlots = (episodes: number) => (episodes === 0 ? 0 : Math.ceil(episodes / rolloutConcurrency) * Math.ceil(tau));
  const callSlots = (calls: number) => Math.ceil(calls / analystConcurrency);
  function stepSlots(sizes: readonly number[], estimate: StepCallEstimate): number {
    const { failurePatches, successPatches } = agent ? { failurePatches: 0, successPatches: 0 } : stepPatches(sizes);
    const merges = aggregationWaves(failurePatches, successPatches, Math.max(2, input.mergeBatchSize));
    // The batches of a step roll out together; the gate's candidate rollouts follow the proposal.
    return (
      rolloutSlots(estimate.trainEpisodes) +
      estimate.agentRuns +
      callSlots(estimate.analystCalls) +
      merges +
      estimate.learningRateCalls +
      estimate.rankingCalls +
      estimate.rewriteCalls +
      rolloutSlots(estimate.selectionEpisodes)
    );
  }

  let stepOptimizerCalls = 0;
  let stepEpisodes = 0;
  let stepLatencySlots = 0;
  for (let step = 0; step < stepsPerEpoch; step++) {
    const sizes = batchSizes.slice(step * accumulation, (step + 1) * accumulation);
    const estimate = stepEstimate(sizes);
    stepOptimizerCalls += estimate.optimizerCalls;
    stepEpisodes += estimate.targetEpisodes;
    stepLatencySlots += stepSlots(sizes, estimate);
  }
  stepLatencySlots *= input.epochs;
  stepOptimizerCalls *= input.epochs;
  stepEpisodes *= input.epochs;

  // Epoch-end work happens from epoch 2 on (epoch 1 has no previous epoch to compare with).
  const comparedEpochs = input.epochs - 1;
  const comparisonEpisodes = 2 * slowUpdateSamples;
  const epochEndOptimizerCalls = comparedEpochs * ((useSlowUpdate ? 1 : 0) + (useMetaSkill ? 1 : 0));
  const epochEndEpisodes =
    comparedEpochs *
    ((useSlowUpdate ? comparisonEpisodes + (input.slowUpdateGated === true ? input.selectionSize : 0) : 0) +
      (useMetaSkill && !useSlowUpdate ? comparisonEpisodes : 0));
  const baselineEpisodes = input.selectionSize;
  const finalSelectionEpisodes = (input.finalSelectionCheck ?? true) && testSize > 0 ? input.selectionSize : 0;
  const testEpisodes = testEvaluations * testSize;
  const targetEpisodes = baselineEpisodes + stepEpisodes + epochEndEpisodes + finalSelectionEpisodes + testEpisodes;
  // The baseline rolls out beside step 1's batch, the final selection score beside the tests, and
  // an epoch's slow update and meta skill side by side after their shared comparison rollouts.
  const firstBatch = batchSizes.slice(0, accumulation).reduce((sum, size) => sum + size, 0);
  const latencySlots =
    rolloutSlots(baselineEpisodes + firstBatch) -
    rolloutSlots(firstBatch) +
    stepLatencySlots +
    comparedEpochs *
      (useSlowUpdate || useMetaSkill
        ? rolloutSlots(comparisonEpisodes) + 1 + (useSlowUpdate && input.slowUpdateGated === true ? rolloutSlots(input.selectionSize) : 0)
        : 0) +
    rolloutSlots(finalSelectionEpisodes + testEpisodes);

  const assumptions = [
    `${Math.round(failureRate * 100)}% of train rollouts fail (analyst and merge calls depend on it)`,
    'every candidate gets a full selection rollout (a candidate already evaluated costs nothing)',
    `${tau} target call${tau === 1 ? '' : 's'} per episode`,
  ];
  if (!fullRewrite && (input.expectRankingCall ?? true)) assumptions.push('the merged edits exceed the edit budget every step (one ranking call)');
  if (testSize > 0) assumptions.push(`the test split is rolled out ${testEvaluations} times (initial, best and final skill)`);
  assumptions.push('calls retried after errors are not included');

  return {
    stepsPerEpoch,
    totalSteps,
    perStep: stepEstimate(batchSizes.slice(0, accumulation)),
    perRun: {
      optimizerCalls: stepOptimizerCalls + epochEndOptimizerCalls,
      targetEpisodes,
      targetCalls: targetEpisodes * tau,
      breakdown: { stepOptimizerCalls, epochEndOptimizerCalls, baselineEpisodes, stepEpisodes, epochEndEpisodes, finalSelectionEpisodes, testEpisodes },
    },
    latencySlots,
    assumptions,
  };
}

/**
 * Batch sizes of one epoch (§1.2): consecutive slices of the shuffled train split (the last may be
 * short); when accumulation asks for more batches than one pass gives, the rest are full batches
 * of a fresh shuffle.
 */
function epochBatchSizes(trainSize: number, batchSize: number, batchCount: number): number[] {
  const sizes: number[] = [];
  const slices = Math.ceil(trainSize / batchSize);
  for (let index = 0; index < batchCount; index++)
    sizes.push(index < slices ? Math.min(batchSize, trainSize - index * batchSize) : Math.min(batchSize, trainSize));
  return sizes;
}

function requireCount(name: string, value: number, minimum: number): void {
  if (!Number.isInteger(value) || value < minimum) throw new RangeError(`${name} must be a whole number of at least ${minimum}, got ${value}`);
}
