import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
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
    ...splitSettingsShape,
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
  .superRefine(checkSplitSettings);

/** The config as written (defaults optional). */
export type SearchQaConfigInput = z.input<typeof searchQaConfigSchema>;
/** The config after parsing, every default filled in. */
export type SearchQaConfig = z.output<typeof searchQaConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseSearchQaConfig(input: unknown): SearchQaConfig {
  return parseEnvironmentConfig(searchQaConfigSchema, input, 'searchqa');
}
