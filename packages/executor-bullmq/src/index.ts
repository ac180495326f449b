export { rolloutJobId } from './rollout-job-id.js';
export { createRedisRateLimiterStore, type RedisRateLimiterStore, type RedisRateLimiterStoreOptions } from './rate-limits/redis-rate-limiter-store.js';
