import type { ConfigLayerInput } from '@skillopt/core';
import { NIGHT_ENVIRONMENT_ID } from './night-environment.js';

export interface NightConfigInput {
  tasksFile: string;
  documentFile: string;
  trainTasks: number;
  testTasks: number;
  /** Most rules one night may add, change or remove (the original's edit budget). */
  editBudget: number;
  seed: number;
}

/**
 * A night's run config, as the first layer under the user's own (`--config`, `--set`): one step
 * over every training task, the edit budget as a constant learning rate, no epoch-end stages (a
 * night is one step), the gate on the validation tasks with the original's mixed metric, and the
 * test tasks scored at the end when there are any, and budgets checked before every call. The simulated model is the default backend,
 * so a night runs with no key and no network until the user names another.
 */
export function nightConfigLayer(input: NightConfigInput): ConfigLayerInput {
  return {
    name: 'the night defaults of @skillopt/sleep',
    config: {
      env: nightEnvironmentSection(input.tasksFile, input.documentFile),
      model: { target_backend: 'sim', optimizer_backend: 'sim' },
      train: { num_epochs: 1, batch_size: Math.max(1, input.trainTasks), seed: input.seed },
      gradient: { failure_only: true },
      optimizer: {
        learning_rate: input.editBudget,
        min_learning_rate: Math.min(1, input.editBudget),
        lr_scheduler: 'constant',
        use_slow_update: false,
        use_meta_skill: false,
      },
      evaluation: { gate_metric: 'mixed', gate_mixed_weight: 0.5, eval_test: input.testTasks > 0 },
      // A night is one step: a limit (budget.total.max_calls, max_usd, max_wall_seconds, …) must stop it before the next call, not after the step.
      budget: { stop_mid_step: true },
    },
  };
}

/** The env section that makes a run a night over these tasks and this document. */
export function nightEnvironmentSection(tasksFile: string, documentFile: string): Record<string, string> {
  return { name: NIGHT_ENVIRONMENT_ID, tasks_file: tasksFile, document_file: documentFile };
}
