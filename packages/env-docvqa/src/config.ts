import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
import { z } from 'zod';

/** The `detail` hint sent with the page image; `auto` leaves the choice to the provider. */
export const IMAGE_DETAILS = ['auto', 'low', 'high'] as const;
export type ImageDetail = (typeof IMAGE_DETAILS)[number];

/**
 * The `env` section of a run config for DocVQA, in the original's snake_case key names so its YAML
 * ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 *
 * Keys that belong to the trainer rather than to this env (`name`, `skill_init`, `out_root`) are
 * not part of this schema: the config loader takes them out of the `env` section before handing it
 * over.
 */
export const docVqaConfigSchema = z
  .strictObject({
    ...splitSettingsShape,
    /**
     * Where an item's relative `image_path` is resolved. Empty: the split root (`split_dir`), or in
     * ratio mode the directory holding the pool file.
     */
    image_root: z.string().default(''),
    /** The `detail` hint sent with each page image; `auto` sends none (the provider's default). */
    image_detail: z.enum(IMAGE_DETAILS).default('auto'),
    /** Target calls per item. Only 1 is supported: one question, one answer. */
    max_turns: z.literal(1, { error: 'max_turns: only 1 is supported (one target call per item)' }).default(1),
    /** The target's output-token cap for an answer. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Seconds one target call may take before it is abandoned as a provider timeout (retried by the trainer); 0 = no limit. */
    exec_timeout: z.number().nonnegative().default(120),
    /** How many items the trainer may roll out at once (the env itself keeps no shared state). */
    workers: z.int().positive().optional(),
  })
  .superRefine(checkSplitSettings);

/** The config as written (defaults optional). */
export type DocVqaConfigInput = z.input<typeof docVqaConfigSchema>;
/** The config after parsing, every default filled in. */
export type DocVqaConfig = z.output<typeof docVqaConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseDocVqaConfig(input: unknown): DocVqaConfig {
  return parseEnvironmentConfig(docVqaConfigSchema, input, 'docvqa');
}
