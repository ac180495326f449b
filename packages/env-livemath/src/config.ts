import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
import { z } from 'zod';

/**
 * The `env` section of a run config for LiveMathematicianBench, in the original's snake_case key
 * names so its YAML ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 *
 * Keys that belong to the trainer rather than to this env (`name`, `skill_init`, `out_root`,
 * `rollout_workers`) are not part of this schema: the config loader takes them out of the `env`
 * section before handing it over.
 */
export const liveMathConfigSchema = z
  .strictObject({
    ...splitSettingsShape,
    // Ratio mode here also reads a directory of the benchmark's monthly `qa_<YYYYMM>_final.json`
    // files (searched recursively), and `split_seed` also seeds each item's choice order.
    /** Target calls per item. Only 1 is supported: one question, one answer. */
    max_turns: z.literal(1, { error: 'max_turns: only 1 is supported (one target call per item)' }).default(1),
    /** The target's output-token cap for an answer. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Seconds one target call may take before it is abandoned as a provider timeout (retried by the trainer); 0 = no limit. */
    exec_timeout: z.number().nonnegative().default(300),
    /**
     * Present each item's choices in a fixed pseudo-random order, relabelled A, B, C, …, so that the
     * position of the correct choice carries no signal. The order depends on the item id and
     * `split_seed` only: the same item is shown the same way in every run, batch and phase.
     */
    shuffle_choices: z.boolean().default(true),
    /** Show the item's source theorem to the target under `## Theorem` (a hint; off in the paper). */
    use_theorem: z.boolean().default(false),
    /** Show the item's proof sketch to the target under `## Proof sketch` (a hint; off in the paper). */
    use_sketch: z.boolean().default(false),
    /** How many items the trainer may roll out at once (the env itself keeps no shared state). */
    workers: z.int().positive().optional(),
  })
  .superRefine(checkSplitSettings);

/** The config as written (defaults optional). */
export type LiveMathConfigInput = z.input<typeof liveMathConfigSchema>;
/** The config after parsing, every default filled in. */
export type LiveMathConfig = z.output<typeof liveMathConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseLiveMathConfig(input: unknown): LiveMathConfig {
  return parseEnvironmentConfig(liveMathConfigSchema, input, 'livemath');
}
