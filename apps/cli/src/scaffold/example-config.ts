import type { ScaffoldContext } from './context.js';

/** Where the example run config goes in the package. */
export const EXAMPLE_CONFIG_PATH = 'configs/example.yaml';

/**
 * configs/example.yaml: trains the env on the simulated model (backend `sim`, shipped with the
 * CLI). The env is named by its short name, so the same file works from the package's own
 * directory (Node resolves a package's own name there: a self-reference through its `exports`)
 * and from any project that has the package installed.
 */
export function buildExampleConfig(context: ScaffoldContext): string {
  return `# Trains ${context.packageName}'s initial skill on the SIMULATED model: no API key, no network.
# The target and the optimizer are SkillOpt's deterministic, seeded simulated model (backend \`sim\`,
# installed with the skillopt CLI); its "knowledge" is an answer key built from this env's items.
#
#   skillopt train --config ${EXAMPLE_CONFIG_PATH}        (the CLI: npm install -g @skillopt/cli)
#
# \`env.name: ${context.name}\` is looked up as @skillopt/env-${context.name}, then ${context.packageName}:
# found in node_modules where the package is installed, and in this directory as the package itself.
# For a real model, set model.target_backend / model.optimizer_backend (e.g. openai) and the models.
model:
  target: sim-target
  optimizer: sim-optimizer
  target_backend: sim
  optimizer_backend: sim

backends:
  sim:
    seed: 11

train:
  num_epochs: 2
  batch_size: 3          # 6 train items: 2 steps per epoch
  seed: 42

optimizer:
  slow_update_samples: 6

evaluation:
  sel_env_num: 0         # the whole val split gates each candidate
  test_env_num: 0        # the whole test split at the end
  eval_test: true

env:
  name: ${context.name}
  # Keys of this env (see README): a split root of your own, a per-split item limit, the token cap.
  # split_dir: ./my-data
  limit: 0
  max_completion_tokens: 1024
`;
}
