import { isConfigMapping, type ConfigTree } from '../config-tree.js';
import { CONFIG_SECTIONS } from '../core-config-schema.js';
import { matchOriginalBackendKey, ORIGINAL_KEY_SPELLINGS } from './original-key-names.js';

/**
 * The original's configs come in two shapes (upstream-core §7.1): structured (sections `model`,
 * `train`, …) and flat legacy (every key at the top level, `edit_budget: 4`, `env: searchqa`).
 * Its flat names and their sections' names (§7.3, §7.5) are listed here; lifting a layer puts
 * each flat key where a structured config has it, before layers are merged, so a child's flat
 * key overrides its base's structured twin exactly as the original did.
 */
const FLAT_KEY_PATHS: Readonly<Record<string, readonly string[]>> = {
  // model
  model_backend: ['model', 'backend'],
  optimizer_model: ['model', 'optimizer'],
  target_model: ['model', 'target'],
  optimizer_backend: ['model', 'optimizer_backend'],
  target_backend: ['model', 'target_backend'],
  reasoning_effort: ['model', 'reasoning_effort'],
  rewrite_reasoning_effort: ['model', 'rewrite_reasoning_effort'],
  rewrite_max_completion_tokens: ['model', 'rewrite_max_completion_tokens'],
  codex_trace_to_optimizer: ['model', 'codex_trace_to_optimizer'],
  // train
  num_epochs: ['train', 'num_epochs'],
  train_size: ['train', 'train_size'],
  steps_per_epoch: ['train', 'steps_per_epoch'],
  batch_size: ['train', 'batch_size'],
  accumulation: ['train', 'accumulation'],
  seed: ['train', 'seed'],
  // gradient
  minibatch_size: ['gradient', 'minibatch_size'],
  merge_batch_size: ['gradient', 'merge_batch_size'],
  analyst_workers: ['gradient', 'analyst_workers'],
  failure_only: ['gradient', 'failure_only'],
  max_analyst_rounds: ['gradient', 'max_analyst_rounds'],
  // optimizer
  edit_budget: ['optimizer', 'learning_rate'],
  min_edit_budget: ['optimizer', 'min_learning_rate'],
  meta_edit_budget: ['optimizer', 'meta_learning_rate'],
  lr_scheduler: ['optimizer', 'lr_scheduler'],
  lr_control_mode: ['optimizer', 'lr_control_mode'],
  skill_update_mode: ['optimizer', 'skill_update_mode'],
  use_slow_update: ['optimizer', 'use_slow_update'],
  slow_update_samples: ['optimizer', 'slow_update_samples'],
  slow_update_gate_with_selection: ['optimizer', 'slow_update_gate_with_selection'],
  longitudinal_pair_policy: ['optimizer', 'longitudinal_pair_policy'],
  use_meta_skill: ['optimizer', 'use_meta_skill'],
  use_skill_aware_reflection: ['optimizer', 'use_skill_aware_reflection'],
  skill_aware_appendix_source: ['optimizer', 'skill_aware_appendix_source'],
  skill_aware_consolidate_threshold: ['optimizer', 'skill_aware_consolidate_threshold'],
  // evaluation
  use_gate: ['evaluation', 'use_gate'],
  gate_metric: ['evaluation', 'gate_metric'],
  gate_mixed_weight: ['evaluation', 'gate_mixed_weight'],
  use_semantic_density: ['evaluation', 'use_semantic_density'],
  semantic_density_weight: ['evaluation', 'semantic_density_weight'],
  leading_words: ['evaluation', 'leading_words'],
  sel_env_num: ['evaluation', 'sel_env_num'],
  test_env_num: ['evaluation', 'test_env_num'],
  eval_test: ['evaluation', 'eval_test'],
  // env
  skill_init: ['env', 'skill_init'],
  out_root: ['env', 'out_root'],
  split_mode: ['env', 'split_mode'],
  split_seed: ['env', 'split_seed'],
  split_dir: ['env', 'split_dir'],
  data_path: ['env', 'data_path'],
  split_output_dir: ['env', 'split_output_dir'],
  split_ratio: ['env', 'split_ratio'],
  exec_timeout: ['env', 'exec_timeout'],
};

const SECTIONS: ReadonlySet<string> = new Set(CONFIG_SECTIONS);

/**
 * Where a top-level key of the original lives in a structured config, or undefined when it is
 * not one of the original's flat names. `env: searchqa` (a string) is the flat name of `env.name`.
 */
function structuredPathOfFlatKey(key: string, value?: unknown): string[] | undefined {
  if (key === 'env') return value === undefined || isConfigMapping(value) ? undefined : ['env', 'name'];
  const known = FLAT_KEY_PATHS[key];
  if (known) return [...known];
  if (matchOriginalBackendKey(key)) return ['model', ORIGINAL_KEY_SPELLINGS[key] ?? key];
  return undefined;
}

/**
 * The path an override's key denotes: an undotted flat name of the original goes to its section,
 * and `env=searchqa` (not a mapping) sets `env.name`, as the original's `--cfg-options` did.
 */
export function liftFlatKeyPath(path: readonly string[], value?: unknown): string[] {
  if (path.length !== 1) return [...path];
  const key = path[0] as string;
  if (key === 'env') return isConfigMapping(value) ? ['env'] : ['env', 'name'];
  if (SECTIONS.has(key)) return [...path];
  return structuredPathOfFlatKey(key, value) ?? [...path];
}

export interface LiftedLayer {
  config: ConfigTree;
  /** Each flat key that moved, with its new place (dotted), for provenance. */
  moves: Array<{ from: string; to: string }>;
  /** Whether the layer was a flat legacy config (no sections at all). */
  flatLegacy: boolean;
}

/**
 * Puts a layer's flat keys into their sections. In a flat legacy layer every other scalar top-level
 * key is a benchmark setting — the original handed those to the env adapter — so it goes to `env`.
 * In a structured layer unknown top-level keys stay put, for validation to name as typos. When a
 * layer has both a structured key and its flat twin, the structured one wins, as in the original.
 */
export function liftFlatLegacyKeys(layer: ConfigTree): LiftedLayer {
  const flatLegacy =
    !Object.entries(layer).some(([key, value]) => SECTIONS.has(key) && isConfigMapping(value)) &&
    Object.entries(layer).some(([key, value]) => structuredPathOfFlatKey(key, value) !== undefined);

  const config: ConfigTree = {};
  const flat: Array<[string, unknown]> = [];
  for (const [key, value] of Object.entries(layer)) {
    const isSection = SECTIONS.has(key) && (isConfigMapping(value) || key !== 'env');
    if (isSection) config[key] = value;
    else flat.push([key, value]);
  }

  const moves: Array<{ from: string; to: string }> = [];
  for (const [key, value] of flat) {
    const target = structuredPathOfFlatKey(key, value) ?? (flatLegacy && !isConfigMapping(value) ? ['env', key] : undefined);
    if (!target) {
      config[key] = value;
      continue;
    }
    const [section, ...rest] = target as [string, ...string[]];
    const existing = config[section];
    const sectionTree: ConfigTree = isConfigMapping(existing) ? { ...existing } : {};
    const leaf = rest.join('.');
    if (rest.length === 1 && Object.hasOwn(sectionTree, rest[0] as string)) continue; // the structured twin wins
    sectionTree[rest[0] as string] = value;
    config[section] = sectionTree;
    moves.push({ from: key, to: `${section}.${leaf}` });
  }
  return { config, moves, flatLegacy };
}
