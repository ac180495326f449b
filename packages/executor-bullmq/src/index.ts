export { type BullmqExecutor, type BullmqExecutorOptions, createBullmqExecutor } from './bullmq-executor.js';
export { displayRedisUrl } from './redis-connection.js';
export type { RolloutJobData, RolloutJobOutcome } from './rollout-job.js';
export { rolloutJobId } from './rollout-job-id.js';
export { type SharedRateLimits, shareRateLimitsThroughRedis } from './rate-limits/shared-rate-limits.js';
export { createRedisRateLimiterStore, type RedisRateLimiterStore, type RedisRateLimiterStoreOptions } from './rate-limits/redis-rate-limiter-store.js';
export { runVersions } from './run-versions.js';
export { type RunWorkerOptions, runWorker, type WorkerRun, type WorkerRunRequest } from './rollout-worker.js';
export { rebuildRolloutError, type SerializedRolloutError, serializeRolloutError } from './serialized-rollout-error.js';
