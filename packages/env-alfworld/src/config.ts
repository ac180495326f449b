import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
import { z } from 'zod';

/**
 * The `env` section of a run config for ALFWorld, in the original's snake_case key names so its
 * YAML ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 *
 * Keys that belong to the trainer (`name`, `skill_init`, `out_root`) are not part of this schema:
 * the config loader takes them out of the `env` section before handing it over.
 */
export const alfWorldConfigSchema = z
  .strictObject({
    ...splitSettingsShape,
    /**
     * Where the ALFWorld data is (`json_2.1.1/…` games and `logic/`), what `alfworld-download`
     * fills. Relative game files of the split are resolved against it. Default: `$ALFWORLD_DATA`.
     */
    data_root: z.string().default(''),
    /** The Python interpreter that has `alfworld` installed (a virtualenv's `bin/python`, say). */
    python: z.string().min(1, 'python must name an interpreter').default('python3'),
    /**
     * A YAML file in ALFWorld's own config format (its `base_config.yaml`) for the engine. Its
     * dataset paths are replaced by the one game being played. Default: the bridge's built-in
     * TextWorld settings (no domain randomisation, all six task types, human goal texts off).
     */
    alfworld_config_file: z.string().default(''),
    /** Actions per game; a game not won by then is lost ("Timeout after N steps"). */
    max_steps: z.int().positive().default(50),
    /** How many of the most recent steps (action and observation) each prompt shows. */
    history_length: z.int().nonnegative().default(2),
    /** The target's output-token cap, per call. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Games played at once: also the most bridge processes alive at a time. */
    workers: z.int().positive().default(8),
    /** Target calls in flight across the games being played (the original's per-step parallelism). */
    max_api_workers: z.int().positive().default(8),
    /**
     * Seconds the bridge may take to answer one request (start, load a game, one action) before
     * it is taken as hung: stopped, and the game excluded as an infrastructure failure.
     */
    bridge_timeout_seconds: z.number().positive().default(120),
    /**
     * Seconds one target call (one step's choice) may take before it is abandoned as a retryable
     * provider timeout; 0 = no limit. A game has no limit of its own: `max_steps` bounds it.
     */
    exec_timeout: z.number().nonnegative().default(120),
  })
  .superRefine((config, context) => checkSplitSettings(config, context));

/** The config as written (defaults optional). */
export type AlfWorldConfigInput = z.input<typeof alfWorldConfigSchema>;
/** The config after parsing, every default filled in. */
export type AlfWorldConfig = z.output<typeof alfWorldConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseAlfWorldConfig(input: unknown): AlfWorldConfig {
  return parseEnvironmentConfig(alfWorldConfigSchema, input, 'alfworld');
}
