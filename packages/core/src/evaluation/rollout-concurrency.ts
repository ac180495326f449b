import type { SkillOptConfig } from '../config/index.js';
import type { Target } from '@skillopt/contract';

/** When neither the config nor the target model says how many items to roll out at once. */
const FALLBACK_ROLLOUT_CONCURRENCY = 16;

/**
 * Items rolled out at once: the env's own setting, else the run's, else what the target model
 * declares it handles (its backend's default, which its own limiter enforces too), else 16. A
 * config that sets nothing so never caps a run below its backend's limit.
 */
export function rolloutConcurrencyOf(config: Pick<SkillOptConfig, 'env' | 'run'>, target: Target): number {
  const declared = target.kind === 'chat' ? target.model.defaultConcurrency : target.runner.defaultConcurrency;
  return config.env.rollout_workers ?? config.run.rollout_concurrency ?? declared ?? FALLBACK_ROLLOUT_CONCURRENCY;
}
