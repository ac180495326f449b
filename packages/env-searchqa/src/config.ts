import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { parseSplitRatio } from '@skillopt/env-kit';
import { z } from 'zod';

/**
 * The `env` section of a run config for SearchQA, in the original's snake_case key names so its
 * YAML ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 *
 * Keys that belong to the trainer rather than to this env (`name`, `skill_init`, `out_root`) are
 * not part of this schema: the config loader takes them out of the `env` section before handing it
 * over.
 */
export const searchQaConfigSchema = z
  .strictObject({
    /** `split_dir`: train/val/test already materialised under `split_dir`. `ratio`: cut one pool (`data_path`). */
    split_mode: z.enum(['split_dir', 'ratio']).default('split_dir'),
    /** A split root: `<split>/items.json`, `<split>/items.jsonl`, `<split>.json` or `<split>.jsonl` for train, val and test. */
    split_dir: z.string().default(''),
    /** Ratio mode: one `.json` (array) or `.jsonl` file of items, or a directory holding exactly one such file. */
    data_path: z.string().default(''),
    /** Ratio mode: train:val:test weights, e.g. "2:1:7". */
    split_ratio: z.string().default('2:1:7'),
    /** Ratio mode: the shuffle seed. */
    split_seed: z.int().default(42),
    /** Ratio mode: when set, the split is also written there (`<split>/items.json` + `split_manifest.json`). */
    split_output_dir: z.string().default(''),
    /** Keep only the first `limit` items of each split; 0 keeps all. */
    limit: z.int().nonnegative().default(0),
    /** Target calls per item. Only 1 is supported: one question, one answer. */
    max_turns: z.literal(1, { error: 'max_turns: only 1 is supported (one target call per item)' }).default(1),
    /** The target's output-token cap for an answer. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Seconds one target call may take before it is abandoned as a provider timeout (retried by the trainer); 0 = no limit. */
    exec_timeout: z.number().nonnegative().default(120),
    /** Search snippets longer than this many characters are cut at a `[DOC]` boundary. */
    max_context_chars: z.int().positive().default(6000),
    /** How many items the trainer may roll out at once (the env itself keeps no shared state). */
    workers: z.int().positive().optional(),
  })
  .superRefine((config, context) => {
    if (config.split_mode === 'split_dir' && config.split_dir.trim() === '') {
      context.addIssue({ code: 'custom', path: ['split_dir'], message: 'split_mode is split_dir, so split_dir must name the split root' });
    }
    if (config.split_mode === 'ratio') {
      if (config.data_path.trim() === '') {
        context.addIssue({ code: 'custom', path: ['data_path'], message: 'split_mode is ratio, so data_path must name the item pool' });
      }
      try {
        parseSplitRatio(config.split_ratio);
      } catch (error) {
        context.addIssue({ code: 'custom', path: ['split_ratio'], message: (error as Error).message });
      }
    }
  });

/** The config as written (defaults optional). */
export type SearchQaConfigInput = z.input<typeof searchQaConfigSchema>;
/** The config after parsing, every default filled in. */
export type SearchQaConfig = z.output<typeof searchQaConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseSearchQaConfig(input: unknown): SearchQaConfig {
  const parsed = searchQaConfigSchema.safeParse(input ?? {});
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues
    .map((issue) => {
      const where = issue.path.map(String).join('.');
      return where === '' ? issue.message : `env.${where}: ${issue.message}`;
    })
    .join('; ');
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `invalid searchqa config: ${problems}`,
    details: { issues: parsed.error.issues.map((issue) => ({ path: issue.path.map(String), message: issue.message })) },
  });
}
