import { DEFAULT_MAX_ITEMS_FILE_BYTES } from '@skillopt/env-kit';
import { z } from 'zod';
import { EXECUTOR_IDS } from '../resolution/known-package-names.js';
import {
  canonicalLrControlMode,
  canonicalPairPolicy,
  canonicalSkillUpdateMode,
  LONGITUDINAL_PAIR_POLICIES,
  LR_CONTROL_MODES,
  SKILL_UPDATE_MODES,
} from './value-aliases.js';

/*
 * The schema of core's own configuration keys. Keys are snake_case as in the original's YAML so
 * its configs port over; defaults are the original's base YAML (`configs/_base_/default.yaml`,
 * upstream-core §7.3) where it had one. Every section is a strict object: an unknown key is an
 * error with a suggestion rather than a silently ignored typo. `env` is the exception — it also
 * holds the env package's keys, which composeConfigSchema validates with that package's schema.
 *
 * Each key's `.describe()` text is its documentation: docs/configuration.md lists the same keys
 * and a test checks that nothing is missing there.
 */

const wholeNumber = (minimum: number) => z.number().int().min(minimum);
const nonEmptyText = z.string().min(1, { error: 'must not be empty; leave the key out instead' });

export const REASONING_EFFORTS = ['none', 'minimal', 'low', 'medium', 'high', 'xhigh', 'max'] as const;

export const modelSectionSchema = z.strictObject({
  target: nonEmptyText.optional().describe("The target model's id (the model that runs the tasks). Absent: the target backend's default model."),
  optimizer: nonEmptyText
    .optional()
    .describe("The optimizer model's id (the model that reflects and edits the skill). Absent: the optimizer backend's default model."),
  target_backend: nonEmptyText.default('openai').describe('Backend id or package name that drives the target (openai, anthropic, sim, codex, claude-code, …).'),
  optimizer_backend: nonEmptyText.default('openai').describe('Backend id or package name that drives the optimizer.'),
  reasoning_effort: z.enum(REASONING_EFFORTS).default('medium').describe('Reasoning effort asked of both models where the backend supports it.'),
  rewrite_reasoning_effort: z
    .enum(REASONING_EFFORTS)
    .optional()
    .describe('Reasoning effort of the rewrite calls (skill_update_mode other than patch). Absent: reasoning_effort.'),
  rewrite_max_completion_tokens: wholeNumber(1).default(64000).describe('Output-token cap of one rewrite call.'),
});

const backendsSectionSchema = z
  .record(z.string(), z.record(z.string(), z.unknown()))
  .default({})
  .describe("Each backend's own settings under its id (backends.openai, backends.codex, …), validated by that backend package's schema.");

export const trainSectionSchema = z.strictObject({
  num_epochs: wholeNumber(1).default(4).describe('Passes over the training split.'),
  train_size: wholeNumber(0).default(0).describe('Training items to use; 0 uses the whole training split.'),
  batch_size: wholeNumber(1).default(40).describe('Items rolled out per batch.'),
  accumulation: wholeNumber(1).default(1).describe('Batches whose edits are accumulated into one step.'),
  seed: z.number().int().default(42).describe('Seed of every random choice (batch order, minibatches, sampling).'),
});

export const gradientSectionSchema = z.strictObject({
  minibatch_size: wholeNumber(1).default(8).describe('Trajectories the optimizer reads in one reflection call.'),
  merge_batch_size: wholeNumber(2).default(8).describe('Edit lists merged per merge call; at least 2, otherwise merging never converges.'),
  analyst_workers: wholeNumber(1).default(16).describe('Reflection and merge calls in flight at once.'),
  failure_only: z.boolean().default(false).describe('Reflect on failed trajectories only (skip the success analysis).'),
});

export const optimizerSectionSchema = z
  .strictObject({
    mode: z
      .enum(['chat', 'agent'])
      .default('chat')
      .describe(
        "chat: the optimizer model reflects on the trajectories in prompts; agent: the harness of model.optimizer_backend (claude-code, codex, …) edits a copy of the skill in a workspace of the step's trajectories, and its changes go through the same learning rate, ranking and gate.",
      ),
    agent_timeout_ms: wholeNumber(1).default(600_000).describe("With mode agent: the time the optimizer agent's run may take in one step."),
    agent_transcript_max_bytes: wholeNumber(0)
      .default(262_144)
      .describe("With mode agent: the most of the optimizer agent's transcript a step keeps (its start and its end; 0 keeps none)."),
    learning_rate: wholeNumber(1).default(4).describe('Most edits applied in one step (the edit budget), the peak of the schedule.'),
    min_learning_rate: wholeNumber(0).default(2).describe('Floor of the decaying schedules.'),
    lr_scheduler: z.enum(['constant', 'linear', 'cosine', 'autonomous']).default('cosine').describe('How the edit budget changes over the steps.'),
    lr_control_mode: z
      .preprocess(canonicalLrControlMode, z.enum(LR_CONTROL_MODES))
      .default('fixed')
      .describe(
        'fixed: the scheduler sets the edit budget; autonomous: the optimizer model decides it each step; none: no budget, every selected edit applies.',
      ),
    skill_update_mode: z
      .preprocess(canonicalSkillUpdateMode, z.enum(SKILL_UPDATE_MODES))
      .default('patch')
      .describe(
        'patch: apply the selected edits; rewrite_from_suggestions: rewrite the skill from them; full_rewrite_minibatch: rewrite from the trajectories.',
      ),
    use_slow_update: z
      .boolean()
      .default(true)
      .describe(
        "Epoch-end slow update that compares last epoch's skill with this one. The original's YAML default (true) is kept; its trainer fell back to false.",
      ),
    slow_update_samples: wholeNumber(1).default(20).describe('Items rolled out with both skills for the slow update.'),
    slow_update_gate_with_selection: z.boolean().default(false).describe('Gate the slow update on the selection split like a step.'),
    longitudinal_pair_policy: z
      .preprocess(canonicalPairPolicy, z.enum(LONGITUDINAL_PAIR_POLICIES))
      .default('mixed')
      .describe('Which old/new outcome pairs the slow update shows: mixed, changed (flipped outcomes) or unchanged.'),
    use_meta_skill: z
      .boolean()
      .default(true)
      .describe("Epoch-end optimizer memory (meta skill). The original's YAML default (true) is kept; its trainer fell back to false."),
    use_skill_aware_reflection: z.boolean().default(false).describe('Route reflections through the skill-aware appendix.'),
    skill_aware_appendix_source: z.enum(['both', 'failure_only']).default('both').describe('Which trajectories feed the appendix.'),
    skill_aware_consolidate_threshold: wholeNumber(0).default(0).describe('Appendix notes that trigger a consolidation; 0 never consolidates.'),
    rejected_edit_buffer_size: wholeNumber(0)
      .default(20)
      .describe("Rejected edits remembered within an epoch and shown to the optimizer (the original's buffer grew without bound)."),
  })
  .superRefine((section, context) => {
    if (section.min_learning_rate > section.learning_rate)
      context.addIssue({
        code: 'custom',
        path: ['min_learning_rate'],
        message: `must not exceed optimizer.learning_rate (${section.learning_rate}), got ${section.min_learning_rate}`,
      });
  });

const leadingWords = z.preprocess(
  (value) =>
    typeof value === 'string'
      ? value
          .split(',')
          .map((word) => word.trim())
          .filter((word) => word !== '')
      : value,
  z.array(z.string(), { error: 'expected a list of words or one comma-separated string' }),
);

const itemId = z.union([z.string(), z.number()], { error: 'expected an item id' }).transform(String);

export const evaluationSectionSchema = z.strictObject({
  use_gate: z
    .boolean()
    .default(true)
    .describe('Accept a candidate skill only if it beats the incumbent on the selection split; false accepts every candidate.'),
  gate_metric: z.enum(['hard', 'soft', 'mixed']).default('hard').describe('Score the gate compares: hard (pass rate), soft (partial credit) or mixed.'),
  gate_mixed_weight: z.number().min(0).max(1).default(0.5).describe('Weight of the soft score in the mixed metric.'),
  use_semantic_density: z.boolean().default(false).describe('Add a small bonus for dense, directive skill text to the gate score.'),
  semantic_density_weight: z.number().min(0).default(0.05).describe('Weight of the semantic-density bonus.'),
  leading_words: leadingWords
    .optional()
    .describe('Directive words counted by the density bonus (a list or a comma-separated string). Absent: the built-in list.'),
  sel_env_num: wholeNumber(0).default(0).describe('Selection (validation) items the gate evaluates; 0 uses all.'),
  test_env_num: wholeNumber(0).default(0).describe('Test items of the final evaluation; 0 uses all.'),
  eval_test: z.boolean().default(true).describe('Evaluate the best skill on the test split at the end.'),
  gate_strategy: z
    .enum(['strict', 'paired'])
    .default('strict')
    .describe("strict: the candidate's mean must exceed the incumbent's (the original); paired: a per-item paired comparison with an error rate."),
  paired_error_rate: z.number().gt(0).lt(1).default(0.05).describe('Paired gate: the accepted risk of taking a candidate that is not really better.'),
  paired_futility: z
    .number()
    .min(0)
    .lt(1)
    .default(0.2)
    .describe('Paired gate: reject once the predicted chance that the candidate wins on the whole selection split is below this; 0 evaluates on.'),
  paired_chunk_size: wholeNumber(1)
    .default(10)
    .describe('Paired gate, and the strict gate with strict_early_stop: items evaluated between checks, so it can stop early once the answer is clear.'),
  strict_early_stop: z
    .boolean()
    .default(false)
    .describe(
      'Strict gate: stop evaluating a candidate once no remaining selection item can change the decision (same decisions, fewer rollouts on rejections).',
    ),
  no_regression: z.boolean().default(false).describe('Reject a candidate that fails a selection item the incumbent passed.'),
  must_pass: z.array(itemId).default([]).describe('Selection item ids a candidate must pass to be accepted.'),
});

const relativeOrAbsolutePath = nonEmptyText;

/** Core's keys of the `env` section; every other key there belongs to the env package. */
export const envCoreShape = {
  name: nonEmptyText.describe('The benchmark: an env id (searchqa), a package name or a path.'),
  skill_init: relativeOrAbsolutePath.optional().describe("Initial skill file. Absent: the env package's initial skill."),
  out_root: relativeOrAbsolutePath.optional().describe('Run directory. Absent: outputs/skillopt_<env>_<optimizer model>_<timestamp>.'),
  split_mode: z.enum(['ratio', 'split_dir']).default('ratio').describe('ratio: split data_path by split_ratio; split_dir: read train/val/test from split_dir.'),
  split_seed: z.number().int().default(42).describe('Seed of the ratio split.'),
  split_dir: relativeOrAbsolutePath.optional().describe('Directory with train/, val/ and test/ item files (split_mode: split_dir).'),
  data_path: relativeOrAbsolutePath.optional().describe('Raw items file or directory that split_mode: ratio splits.'),
  split_output_dir: relativeOrAbsolutePath.optional().describe('Where a ratio split is written. Absent: <out_root>/_generated_splits/….'),
  split_ratio: z
    .string()
    .regex(/^\s*[1-9]\d*\s*:\s*[1-9]\d*\s*:\s*[1-9]\d*\s*$/, { error: 'expected train:val:test as three whole numbers above 0, e.g. "2:1:7"' })
    .default('2:1:7')
    .describe('train:val:test proportions of a ratio split.'),
  max_items_file_bytes: wholeNumber(1)
    .optional()
    .describe(
      `The largest split or pool file read, in bytes; a larger one is an error that names it before it is read. Absent: ${DEFAULT_MAX_ITEMS_FILE_BYTES} (256 MiB).`,
    ),
  exec_timeout: z.number().min(0).default(120).describe('Seconds one target call or agent task may take; 0 means no limit.'),
  rollout_workers: wholeNumber(1).optional().describe('Items of this env rolled out at once. Absent: env.workers, else run.rollout_concurrency.'),
  workers: wholeNumber(1).optional().describe("The original's name for rollout_workers, still accepted; rollout_workers wins when both are set."),
};

/**
 * Keys of `env` that only the trainer reads; they are never handed to the env package. Core's
 * other env keys (the split settings, exec_timeout, workers) are settings the env package may
 * also declare — it then receives them too, since it is the one that loads splits and calls the
 * target, and its defaults win for them.
 */
export const TRAINER_ENV_KEYS: ReadonlySet<string> = new Set(['name', 'skill_init', 'out_root', 'rollout_workers']);

export const envSectionSchema = z.looseObject(envCoreShape).transform((section) =>
  // Core schedules rollouts by rollout_workers; a config that says `workers` (the original's name) means the same.
  section.rollout_workers === undefined && section.workers !== undefined ? { ...section, rollout_workers: section.workers } : section,
);

const roleBudgetSchema = z
  .strictObject({
    max_calls: wholeNumber(1).optional().describe('Most model calls of this role in the run.'),
    max_tokens: wholeNumber(1).optional().describe('Most tokens (input + output) of this role in the run.'),
    max_usd: z.number().gt(0).optional().describe('Most estimated cost in US dollars of this role in the run.'),
  })
  .prefault({});

const totalBudgetSchema = z
  .strictObject({
    max_calls: wholeNumber(1).optional().describe('Most model calls of the run, both roles together.'),
    max_tokens: wholeNumber(1).optional().describe('Most tokens (input + output) of the run, both roles together.'),
    max_usd: z.number().gt(0).optional().describe('Most estimated cost in US dollars of the run, both roles together.'),
    max_wall_seconds: z
      .number()
      .gt(0)
      .optional()
      .describe('Most seconds of wall time from when the run started (or was resumed: the clock starts again) before it stops.'),
  })
  .prefault({});

export const budgetSectionSchema = z.strictObject({
  target: roleBudgetSchema.describe('Limits of the target role; absent limits are unlimited.'),
  optimizer: roleBudgetSchema.describe('Limits of the optimizer role; absent limits are unlimited.'),
  total: totalBudgetSchema.describe('Limits of the run as a whole; absent limits are unlimited.'),
  stop_mid_step: z
    .boolean()
    .default(false)
    .describe(
      'false: a spent limit stops the run at the next step boundary (a step may overshoot by its own spend); true: before the next model call, also within a step (what a run of one step, as a Sleep night, wants).',
    ),
});

export const runSectionSchema = z.strictObject({
  retries: wholeNumber(0)
    .default(2)
    .describe('Retries of a rollout whose backend failed (infrastructure errors, never wrong answers) before the item is excluded and reported.'),
  rollout_concurrency: wholeNumber(1)
    .optional()
    .describe(
      "Items rolled out at once when the env does not set env.rollout_workers. Absent: the target model's default concurrency (the simulator 64, OpenAI 8, Anthropic 4), else 16.",
    ),
  max_excluded_share: z
    .number()
    .min(0)
    .max(1)
    .default(0.5)
    .describe(
      "The largest share of an evaluation's items that may be excluded for infrastructure failures; an evaluation that excludes more, or every item, stops the run (exit 1, resumable).",
    ),
  executor: z
    .enum(EXECUTOR_IDS)
    .optional()
    .describe(
      'Where rollouts run: in-process (here, when absent), or bullmq (as jobs on Redis, run by `skillopt worker` processes on other machines; needs @skillopt/executor-bullmq and the Redis URL in SKILLOPT_REDIS_URL or --redis-url).',
    ),
});

const perMillionTokens = z.number().min(0);
const isoDate = z
  .union([z.string(), z.date()])
  .transform((value) => (value instanceof Date ? value.toISOString().slice(0, 10) : value))
  .pipe(z.string().regex(/^\d{4}-\d{2}-\d{2}$/, { error: 'expected a date as YYYY-MM-DD' }));

const priceOverrideSchema = z.strictObject({
  provider: nonEmptyText.describe('The provider the calls are recorded under, as the ledger names it (openai, anthropic, claude-code, codex, qwen, …).'),
  model: nonEmptyText.describe('The model id exactly as the run names it, or * for every model of that provider.'),
  input_usd_per_million: perMillionTokens.describe('US dollars per million input tokens.'),
  cached_input_usd_per_million: perMillionTokens.optional().describe('Per million input tokens read from the prompt cache; absent: the input rate.'),
  cache_write_usd_per_million: perMillionTokens.optional().describe('Per million input tokens written to the prompt cache; absent: the input rate.'),
  output_usd_per_million: perMillionTokens.describe('US dollars per million output tokens (reasoning included).'),
  source: nonEmptyText.describe('Where the figures come from: a pricing page, a contract.'),
  as_of: isoDate.describe('The date the figures were read, YYYY-MM-DD.'),
});

const pricesSectionSchema = z.strictObject({
  overrides: z
    .array(priceOverrideSchema)
    .default([])
    .describe(
      'Prices of your own (provider, model, input_usd_per_million, output_usd_per_million, source, as_of; cached_input_ and cache_write_usd_per_million optional), which win over the prices the backend packages ship; a model in no table has an unknown cost.',
    ),
});

export const coreConfigShape = {
  model: modelSectionSchema.prefault({}),
  backends: backendsSectionSchema,
  train: trainSectionSchema.prefault({}),
  gradient: gradientSectionSchema.prefault({}),
  optimizer: optimizerSectionSchema.prefault({}),
  evaluation: evaluationSectionSchema.prefault({}),
  env: envSectionSchema,
  budget: budgetSectionSchema.prefault({}),
  run: runSectionSchema.prefault({}),
  prices: pricesSectionSchema.prefault({}),
};

/** Core's configuration schema on its own; composeConfigSchema adds the installed packages' schemas. */
export const coreConfigSchema = z.strictObject(coreConfigShape);

/** The sections of a configuration file, in the order they are documented and printed. */
export const CONFIG_SECTIONS = Object.keys(coreConfigShape) as Array<keyof typeof coreConfigShape>;
export type ConfigSectionName = (typeof CONFIG_SECTIONS)[number];

/** A validated configuration, with every default filled in. */
export type SkillOptConfig = z.output<typeof coreConfigSchema>;
/** A configuration as a user may write it (defaults optional). */
export type SkillOptConfigInput = z.input<typeof coreConfigSchema>;
