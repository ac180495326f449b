import type { CandidateProposalSettings, LearningRateSchedule } from '@skillopt/optimizer';
import type { SkillOptConfig } from '../config/core-config-schema.js';

/** The optimizer's settings for one step's proposal, from the `optimizer` and `gradient` sections. */
export function proposalSettingsFromConfig(config: SkillOptConfig, totalSteps: number): CandidateProposalSettings {
  const { optimizer, gradient } = config;
  return {
    updateMode: optimizer.skill_update_mode,
    learningRate: {
      schedule: learningRateSchedule(config),
      maxLearningRate: optimizer.learning_rate,
      minLearningRate: optimizer.min_learning_rate,
      totalSteps,
    },
    learningRateLimitsEdits: optimizer.lr_control_mode !== 'none',
    minibatchSize: gradient.minibatch_size,
    failureOnly: gradient.failure_only,
    mergeBatchSize: gradient.merge_batch_size,
    concurrency: gradient.analyst_workers,
    ...(optimizer.use_skill_aware_reflection
      ? {
          appendix: {
            noteSources: optimizer.skill_aware_appendix_source === 'failure_only' ? 'failure-only' : 'both',
            consolidateThreshold: optimizer.skill_aware_consolidate_threshold,
          },
        }
      : {}),
  };
}

/** `lr_control_mode: autonomous` (the original's switch) or `lr_scheduler: autonomous` lets the optimizer decide. */
function learningRateSchedule(config: SkillOptConfig): LearningRateSchedule {
  return config.optimizer.lr_control_mode === 'autonomous' ? 'autonomous' : config.optimizer.lr_scheduler;
}
