import type { SplitName, Target } from '@skillopt/contract';
import { rolloutConcurrencyOf } from '../evaluation/rollout-concurrency.js';
import type { SkillOptConfig } from '../config/core-config-schema.js';
import { estimateRunCalls, type RunCallEstimate } from '../ledger/call-estimate.js';

/**
 * The pre-run estimate of a config's calls, so nobody starts a paid run blind: the config's keys
 * mapped onto estimateRunCalls once, here, for every caller (the CLI prints it before training).
 */
export function estimateRun(config: SkillOptConfig, splitSizes: Readonly<Record<SplitName, number>>, target: Target): RunCallEstimate {
  const limit = (count: number, available: number) => (count > 0 ? Math.min(count, available) : available);
  return estimateRunCalls({
    trainSize: limit(config.train.train_size, splitSizes.train),
    batchSize: config.train.batch_size,
    accumulation: config.train.accumulation,
    epochs: config.train.num_epochs,
    minibatchSize: config.gradient.minibatch_size,
    mergeBatchSize: config.gradient.merge_batch_size,
    selectionSize: limit(config.evaluation.sel_env_num, splitSizes.val),
    testSize: config.evaluation.eval_test ? limit(config.evaluation.test_env_num, splitSizes.test) : 0,
    slowUpdateSamples: config.optimizer.slow_update_samples,
    useSlowUpdate: config.optimizer.use_slow_update,
    useMetaSkill: config.optimizer.use_meta_skill,
    slowUpdateGated: config.optimizer.slow_update_gate_with_selection,
    failureOnly: config.gradient.failure_only,
    updateMode: config.optimizer.skill_update_mode,
    optimizerMode: config.optimizer.mode,
    lrControlMode: config.optimizer.lr_control_mode,
    // This trainer rolls out the initial and the best skill on the test split (not a third, final one).
    testEvaluations: 2,
    // The rollouts in flight the run will really have, the target's declared default included.
    rolloutConcurrency: rolloutConcurrencyOf(config, target),
    analystConcurrency: config.gradient.analyst_workers,
  });
}
