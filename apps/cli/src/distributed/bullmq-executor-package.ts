import type { Environment, Target, TaskItem } from '@skillopt/contract';
import { type Executor, importExecutorPackage, type Ledger, type PackageResolver, type PreparedRun, type RunEventEmitter } from '@skillopt/core';

/** A run as `skillopt worker` prepares it for @skillopt/executor-bullmq's `runWorker`. */
interface WorkerRun {
  environment: Environment;
  target: Target;
  versions: Readonly<Record<string, string>>;
  findItem(itemId: string): TaskItem | undefined;
  close?(): Promise<void>;
}

/** Rate limits counted in Redis until closed. */
export interface SharedRateLimits {
  close(): Promise<void>;
}

/** How long a trainer waits for Redis when it stops, and how often and for how long its run's heartbeat is set. */
export interface DistributedTrainerTiming {
  closeTimeoutMs?: number;
  heartbeatIntervalMs?: number;
  heartbeatTtlMs?: number;
}

/**
 * What the CLI uses of @skillopt/executor-bullmq, written out here: the CLI does not depend on the
 * package (it is loaded by name, only by a run that asks for it), so it cannot import its types.
 */
export interface BullmqExecutorModule {
  createBullmqExecutor(
    options: {
      url: string;
      runId: string;
      config: Record<string, unknown>;
      versions: Readonly<Record<string, string>>;
      ledger?: Ledger;
      onEvent?: RunEventEmitter;
      onNotice?: (message: string) => void;
    } & DistributedTrainerTiming,
  ): Executor;
  runWorker(options: {
    url: string;
    concurrency: number;
    signal: AbortSignal;
    prepareRun(request: { runId: string; config: Record<string, unknown>; configHash: string }): Promise<WorkerRun>;
    workDirectory: string;
    workerName?: string;
    lockDurationMs?: number;
    stalledIntervalMs?: number;
    closeTimeoutMs?: number;
    discoveryIntervalMs?: number;
    onNotice?: (message: string) => void;
  }): Promise<void>;
  runVersions(run: PreparedRun): Record<string, string>;
  shareRateLimitsThroughRedis(options: { url: string }): SharedRateLimits;
  displayRedisUrl(url: string): string;
}

/** @skillopt/executor-bullmq, loaded by name where env and backend packages are found. */
export async function loadBullmqExecutor(resolver: PackageResolver): Promise<BullmqExecutorModule> {
  return (await importExecutorPackage('bullmq', { searchDirectories: resolver.searchDirectories })) as BullmqExecutorModule;
}
