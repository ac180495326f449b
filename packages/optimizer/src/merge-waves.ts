/**
 * The depth of a merge in waves: a wave is a set of model calls that can run at the same time, so
 * waves, not calls, are what latency multiplies. One level of a hierarchical merge is one wave.
 */
function hierarchicalMergeLevels(patchCount: number, mergeBatchSize: number): number {
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
