import type { ExecutorRun, PackageResolver, PreparedRun, SkillOptConfig, TrainOptions } from '@skillopt/core';
import { type DistributedTrainerTiming, loadBullmqExecutor, type SharedRateLimits } from './bullmq-executor-package.js';
import { redisUrlOf } from './redis-url.js';

/**
 * The `createExecutor` of a run whose config says `run.executor: bullmq`: its rollouts become jobs
 * on Redis for `skillopt worker` processes. Nothing for any other run.
 */
export async function distributedExecutorOf(
  run: PreparedRun,
  options: {
    resolver: PackageResolver;
    redisUrlFlag: string | undefined;
    notice: (message: string) => void;
  } & DistributedTrainerTiming,
): Promise<Pick<TrainOptions, 'createExecutor'>> {
  if (run.config.run.executor !== 'bullmq') return {};
  const url = redisUrlOf(options.redisUrlFlag);
  const bullmq = await loadBullmqExecutor(options.resolver);
  const versions = bullmq.runVersions(run);
  return {
    createExecutor: ({ runId, ledger, emit }: ExecutorRun) =>
      bullmq.createBullmqExecutor({
        url,
        runId,
        config: run.config as unknown as Record<string, unknown>,
        versions,
        ledger,
        onEvent: emit,
        onNotice: options.notice,
        ...(options.closeTimeoutMs === undefined ? {} : { closeTimeoutMs: options.closeTimeoutMs }),
        ...(options.heartbeatIntervalMs === undefined ? {} : { heartbeatIntervalMs: options.heartbeatIntervalMs }),
        ...(options.heartbeatTtlMs === undefined ? {} : { heartbeatTtlMs: options.heartbeatTtlMs }),
      }),
  };
}

export type { SharedRateLimits };

/**
 * For a run whose config says `run.executor: bullmq`: the trainer's own calls (the optimizer's, and
 * any target call it makes) count against the same provider limits as its workers', in Redis.
 * Called before the run's backends are created. Nothing for any other run.
 */
export async function shareRateLimitsWhenDistributed(
  config: SkillOptConfig,
  options: { resolver: PackageResolver; redisUrlFlag: string | undefined },
): Promise<SharedRateLimits | undefined> {
  if (config.run.executor !== 'bullmq') return undefined;
  const bullmq = await loadBullmqExecutor(options.resolver);
  return bullmq.shareRateLimitsThroughRedis({ url: redisUrlOf(options.redisUrlFlag) });
}
