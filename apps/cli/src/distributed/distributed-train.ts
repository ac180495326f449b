import type { ExecutorRun, PackageResolver, PreparedRun, TrainOptions } from '@skillopt/core';
import { loadBullmqExecutor } from './bullmq-executor-package.js';
import { redisUrlOf } from './redis-url.js';

/**
 * The `createExecutor` of a run whose config says `run.executor: bullmq`: its rollouts become jobs
 * on Redis for `skillopt worker` processes. Nothing for any other run.
 */
export async function distributedExecutorOf(
  run: PreparedRun,
  options: { resolver: PackageResolver; redisUrlFlag: string | undefined; notice: (message: string) => void },
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
      }),
  };
}
