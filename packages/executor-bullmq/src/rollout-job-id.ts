import { createHash } from 'node:crypto';

/**
 * A rollout's BullMQ job id: the run's id and the SHA-256 of the rollout's cache key. The same
 * rollout asked for twice (a resumed trainer, a re-enqueue after Redis lost its data) gets the
 * same id, so BullMQ keeps one job and no paid work is enqueued twice.
 */
export function rolloutJobId(runId: string, rolloutCacheKey: string): string {
  return `${runId}-${createHash('sha256').update(rolloutCacheKey).digest('hex')}`;
}
