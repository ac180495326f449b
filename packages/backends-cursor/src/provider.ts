/** The provider name this package reports on every runner, model, error and price. */
export const CURSOR_PROVIDER = 'cursor';

/**
 * The model Cursor is told to use when neither the run config (`model.target` / `model.optimizer`)
 * nor a role section of `backends.cursor` names one: the original SkillOpt's default for cursor_exec.
 */
export const DEFAULT_CURSOR_MODEL = 'composer-2.5';

/** The command started when neither `backends.cursor.path` nor one of CURSOR_PATH_VARIABLES names another. */
export const DEFAULT_CURSOR_COMMAND = 'cursor-agent';

/** The original SkillOpt's variables for the Cursor binary (the harness's, then Sleep's), read in this order after `backends.cursor.path`. */
export const CURSOR_PATH_VARIABLES = ['CURSOR_EXEC_PATH', 'SKILLOPT_SLEEP_CURSOR_PATH'] as const;

/**
 * The stem of the variables the API key is read from, in backends-kit's one precedence:
 * `<ROLE>_CURSOR_API_KEY`, then `CURSOR_API_KEY`. The CLI itself reads `CURSOR_API_KEY`.
 */
export const CURSOR_API_KEY_STEM = 'CURSOR';
export const CURSOR_API_KEY_VARIABLE = `${CURSOR_API_KEY_STEM}_API_KEY`;
