import type { RolloutResult } from '@skillopt/contract';

/**
 * What makes two rollouts the same paid work: the same skill text, item, sample and target model.
 * Anything else (the step, the phase, the candidate's name) is deliberately not part of it, so a
 * rollout paid for once is reused wherever the same work comes up again, also after a resume.
 */
export interface RolloutCacheKey {
  skillHash: string;
  itemId: string;
  sampleIndex: number;
  targetModelId: string;
}

/**
 * Only scored results are cached: an errored rollout is an infrastructure failure to try again,
 * never an outcome to remember.
 */
export interface RolloutCache {
  get(key: RolloutCacheKey): Promise<RolloutResult | undefined>;
  set(key: RolloutCacheKey, result: RolloutResult): Promise<void>;
}

export function rolloutCacheKeyText(key: RolloutCacheKey): string {
  return JSON.stringify([key.skillHash, key.itemId, key.sampleIndex, key.targetModelId]);
}

/** A cache that lives as long as the process: for tests and for eval-only runs without a run directory. */
export function createMemoryRolloutCache(): RolloutCache & { readonly size: number } {
  const entries = new Map<string, RolloutResult>();
  return {
    get size() {
      return entries.size;
    },
    async get(key) {
      return entries.get(rolloutCacheKeyText(key));
    },
    async set(key, result) {
      if (result.status !== 'scored') return;
      entries.set(rolloutCacheKeyText(key), result);
    },
  };
}
