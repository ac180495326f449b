import type { RolloutResult, ScoredRollout } from '@skillopt/contract';

/**
 * A scored result is a failure when it earned no pass mark at all. A fractional `hard` (a partial
 * pass) counts as a success, as in the original: it still shows something that worked.
 */
export function isFailedResult(result: ScoredRollout): boolean {
  return !(result.hard >= 1e-9);
}

export interface ClassifiedResults {
  failed: ScoredRollout[];
  succeeded: ScoredRollout[];
  /** Ids of results whose rollout errored: infrastructure failures are never task evidence. */
  erroredIds: string[];
}

/** Splits results into failed, succeeded and errored ones, each in the order given. */
export function classifyResults(results: readonly RolloutResult[]): ClassifiedResults {
  const classified: ClassifiedResults = { failed: [], succeeded: [], erroredIds: [] };
  for (const result of results) {
    if (result.status === 'errored') classified.erroredIds.push(result.id);
    else if (isFailedResult(result)) classified.failed.push(result);
    else classified.succeeded.push(result);
  }
  return classified;
}

/** Consecutive chunks of at most `size` items, in order. */
export function chunk<Item>(items: readonly Item[], size: number): Item[][] {
  const chunks: Item[][] = [];
  for (let start = 0; start < items.length; start += size) chunks.push(items.slice(start, start + size));
  return chunks;
}
