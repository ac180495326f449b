import { checkSplitSettings, parseEnvironmentConfig, splitSettingsShape } from '@skillopt/env-kit';
import { z } from 'zod';

/** How the target solves a task: one script (`single`), a script revised on feedback (`multi`), or the legacy tool loop (`react`). */
export const SPREADSHEET_MODES = ['single', 'multi', 'react'] as const;
export type SpreadsheetMode = (typeof SPREADSHEET_MODES)[number];

/**
 * The `env` section of a run config for SpreadsheetBench, in the original's snake_case key names
 * so its YAML ports over. Strict: a misspelt key is an error, not a silently ignored setting.
 */
export const spreadsheetBenchConfigSchema = z
  .strictObject({
    ...splitSettingsShape,
    /** The folder the items' `spreadsheet_path` (default `spreadsheet/<id>`) is relative to. Default: the split root. */
    data_root: z.string().default(''),
    /**
     * The benchmark's own task file (e.g. the Verified 400 release's JSON), read when the split's
     * items are a manifest (`id`, `spreadsheet_path`, `instruction_type` only): each item takes its
     * instruction and answer position from the row with its id.
     */
    dataset_file: z.string().default(''),
    mode: z.enum(SPREADSHEET_MODES).default('multi'),
    /** Model calls per task in `multi` and `react` mode. */
    max_turns: z.int().positive().default(30),
    /** The target's output-token cap, per call. */
    max_completion_tokens: z.int().positive().default(16384),
    /** Seconds one task (every model call and every script run) may take; 0 = no limit. */
    exec_timeout: z.number().nonnegative().default(600),
    /** Seconds one run of a script on one test case may take before the sandbox kills it. */
    case_timeout: z.number().positive().default(120),
    /**
     * The Python that runs the generated scripts and the evaluator: a path or a command on PATH.
     * Default: the first of /usr/bin/python3, python3 and python that imports openpyxl (and pandas
     * when `allow_pandas`).
     */
    python: z.string().default(''),
    /** Whether the prompt lets the script use pandas (then the interpreter must have it). */
    allow_pandas: z.boolean().default(true),
    /**
     * `bubblewrap` runs every script in a sandbox (no network, a read-only system, a directory
     * holding only the case's input). `unsandboxed` runs model-written code with your privileges:
     * only for a machine where bubblewrap cannot run, and only with code you would run yourself.
     */
    sandbox: z.enum(['bubblewrap', 'unsandboxed']).default('bubblewrap'),
    /** The sandbox's limits on one script run. */
    sandbox_memory_mb: z.int().positive().default(2048),
    sandbox_max_processes: z.int().positive().default(64),
    sandbox_max_file_mb: z.int().positive().default(64),
    sandbox_max_output_kb: z.int().positive().default(1024),
    /** How many tasks the trainer may roll out at once. */
    workers: z.int().positive().optional(),
  })
  .superRefine(checkSplitSettings);

/** The config as written (defaults optional). */
export type SpreadsheetBenchConfigInput = z.input<typeof spreadsheetBenchConfigSchema>;
/** The config after parsing, every default filled in. */
export type SpreadsheetBenchConfig = z.output<typeof spreadsheetBenchConfigSchema>;

/** Parses a config section, throwing a `config-invalid` SkillOptError that lists every problem. */
export function parseSpreadsheetBenchConfig(input: unknown): SpreadsheetBenchConfig {
  return parseEnvironmentConfig(spreadsheetBenchConfigSchema, input, 'spreadsheetbench');
}
