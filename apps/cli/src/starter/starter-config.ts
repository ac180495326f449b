import type { StarterBackend } from './starter-backends.js';

/** Where the starter's config goes: a name the CLI's project-config discovery finds, so `train` needs no --config. */
export const STARTER_CONFIG_PATH = 'skillopt.config.yaml';

/** skillopt.config.yaml of a starter project: the starter's dataset and skill, on the chosen models. */
export function buildStarterConfig(backend: StarterBackend): string {
  const simulated = backend.id === 'sim';
  const models = simulated
    ? `# The SIMULATED model as target and optimizer: SkillOpt's deterministic, seeded stand-in (backend
# \`sim\`, installed with @skillopt/cli). No API key, no network; its scores say nothing about a real
# model. \`skillopt init --backend openai\` (or anthropic) writes this file for a real one.`
    : `# ${backend.target} answers the questions, ${backend.optimizer} reflects on the answers and edits the skill,
# through ${backend.packageName} (npm install it beside @skillopt/cli). The key comes from the
# environment only: ${backend.keyVariable}. A run prints its estimated calls before it starts.`;
  const budget = simulated
    ? ''
    : `
# The run stops at these estimated costs (resume it with a raised limit: train --resume <run
# directory> --set budget.optimizer.max_usd=5).
budget:
  target:
    max_usd: 1
  optimizer:
    max_usd: 2
`;
  return `# A SkillOpt starter project, written by \`skillopt init\`. In this directory
#
#   npx @skillopt/cli train
#
# finds this file by its name and trains the skill in skills/initial.md on the questions in data/.
# They are in SearchQA's split-directory format (data/<split>/items.json: id, question, answers),
# read by @skillopt/env-searchqa: replace them with your own. Relative paths are resolved against
# this file's directory; \`npx @skillopt/cli config print\` shows every key with its value and source.
${models}
model:
  target: ${backend.target}
  optimizer: ${backend.optimizer}
  target_backend: ${backend.id}
  optimizer_backend: ${backend.id}

train:
  num_epochs: 2
  batch_size: 6 # 18 train questions: 3 steps per epoch
  seed: 42

optimizer:
  slow_update_samples: 6

evaluation:
  sel_env_num: 0 # the whole val split gates each candidate skill
  test_env_num: 0 # the whole test split at the end
  eval_test: true
${budget}
env:
  name: searchqa
  split_mode: split_dir
  split_dir: ./data
  skill_init: ./skills/initial.md
  max_turns: 1
`;
}
