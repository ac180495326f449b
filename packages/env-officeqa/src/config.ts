import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
import { z } from 'zod';
import { authVariableProblem, searchUrlProblem } from './search-endpoint.js';
import { searchModeSchema } from './search-mode.js';

/**
 * The `env` section of a run config for OfficeQA, in the original's snake_case key names so its
 * YAML ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 *
 * Keys that belong to the trainer (`name`, `skill_init`, `out_root`) are not part of this schema:
 * the config loader takes them out of the `env` section before handing it over.
 */
export const officeQaConfigSchema = z
  .strictObject({
    ...splitSettingsShape,
    /**
     * Document folders (the original's key), searched in order for each item's `source_files`. A
     * folder holding a `transformed/` subfolder is read through it, as in the original's corpus layout.
     */
    data_dirs: z.array(z.string().min(1, 'a data_dirs entry must not be blank')).default([]),
    /** One more document folder, searched before `data_dirs` (what the materializer writes: `<out>/corpus`). */
    corpus_dir: z.string().default(''),
    /** Model calls per item. A reply that still calls tools on the last one ends the item: "turn limit reached". */
    max_tool_turns: z.int().positive().default(24),
    /** The target's output-token cap, per call. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Seconds one item (the whole tool loop) may take before it is abandoned as a retryable provider timeout; 0 = no limit. */
    exec_timeout: z.number().nonnegative().default(600),
    /** Characters of one tool result the model receives; longer output is cut with a note. */
    max_tool_output_chars: z.int().min(200).default(8000),
    /**
     * `offline`: the document tools alone. `online`: a `search` tool too, answered by the search
     * endpoint at `search_api_url` (the original's `custom_search`). Nothing is ever sent unless this
     * says `online`.
     */
    search_mode: searchModeSchema.default('offline'),
    /**
     * Which provider answers searches: `custom-http` (built in: POSTs to `search_api_url`). Any other
     * name (the original's `duckduckgo`) also uses the built-in client and is sent as the request's
     * `provider` field, for the endpoint to pick its engine; SkillOpt never calls that engine itself.
     */
    search_provider: z.string().trim().min(1, 'search_provider must not be blank').default('custom-http'),
    /** The search endpoint (online mode). No default: a run never sends queries to a host nobody configured. */
    search_api_url: z.string().trim().default(''),
    /** The environment variable holding the endpoint's token, read at rollout time; `''`: send no Authorization header. */
    search_auth_env: z.string().trim().default('OFFICEQA_CUSTOM_SEARCH_AUTH'),
    /** Searches one model turn may send; further ones in the same turn are refused, not sent. */
    max_queries_per_turn: z.int().positive().default(4),
    /** Results asked for per search. */
    search_max_num_results: z.int().positive().max(50).default(4),
    /** Seconds one search request may take (each attempt). */
    search_timeout_seconds: z.number().positive().default(20),
    /** How many items the trainer may roll out at once (the env keeps no shared state). */
    workers: z.int().positive().optional(),
  })
  .superRefine((config, context) => {
    checkSplitSettings(config, context);
    if (config.corpus_dir.trim() === '' && config.data_dirs.length === 0) {
      context.addIssue({ code: 'custom', path: ['corpus_dir'], message: "set corpus_dir or data_dirs: the folder(s) holding the items' documents" });
    }
    // Checked whatever the mode: a URL with credentials in it is saved with the run's config even if unused.
    const urlProblem = config.search_api_url === '' ? undefined : searchUrlProblem(config.search_api_url);
    if (urlProblem !== undefined) context.addIssue({ code: 'custom', path: ['search_api_url'], message: urlProblem });
    const variableProblem = authVariableProblem(config.search_auth_env);
    if (variableProblem !== undefined) context.addIssue({ code: 'custom', path: ['search_auth_env'], message: variableProblem });
  });

/** The config as written (defaults optional). */
export type OfficeQaConfigInput = z.input<typeof officeQaConfigSchema>;
/** The config after parsing, every default filled in. */
export type OfficeQaConfig = z.output<typeof officeQaConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseOfficeQaConfig(input: unknown): OfficeQaConfig {
  return parseEnvironmentConfig(officeQaConfigSchema, input, 'officeqa');
}
