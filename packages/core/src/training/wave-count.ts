/**
 * The critical path of a run counted in waves: a wave is a set of model calls that can run at
 * the same time, so waves are what latency multiplies. Each stage of a step adds its depth when
 * it made at least one call: the train rollouts 1, the analysts 1, the merge its tree's levels
 * (below), ranking, the learning-rate decision and a rewrite 1 each, the gate one per evaluated
 * chunk. Re-asks after a malformed reply are not counted: they are the exception.
 */
export function hierarchicalMergeLevels(patchCount: number, mergeBatchSize: number): number {
  let levels = 0;
  let groups = patchCount;
  while (groups > 1) {
    groups = Math.ceil(groups / mergeBatchSize);
    levels += 1;
  }
  return levels;
}

/** Failure and success patches merge side by side, then one final merge when both had any. */
export function aggregationWaves(failurePatches: number, successPatches: number, mergeBatchSize: number): number {
  const sideBySide = Math.max(hierarchicalMergeLevels(failurePatches, mergeBatchSize), hierarchicalMergeLevels(successPatches, mergeBatchSize));
  return sideBySide + (failurePatches > 0 && successPatches > 0 ? 1 : 0);
}
