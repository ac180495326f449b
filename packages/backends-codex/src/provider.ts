/** The provider name this package reports on every runner, model, error and price. */
export const CODEX_PROVIDER = 'codex';

/**
 * The model Codex is told to use when neither the run config (`model.target` / `model.optimizer`)
 * nor a role section of `backends.codex` names one: a model of OpenAI's API whose price is known.
 */
export const DEFAULT_CODEX_MODEL = 'gpt-5.1';

/** OpenAI's Responses API, which Codex speaks; `base_url` replaces it (a gateway, `skillopt sim serve`). */
export const DEFAULT_CODEX_BASE_URL = 'https://api.openai.com/v1';

/** The command started when neither `backends.codex.path` nor one of CODEX_PATH_VARIABLES names another. */
export const DEFAULT_CODEX_COMMAND = 'codex';

/** The original SkillOpt's variables for the Codex binary, read in this order after `backends.codex.path`. */
export const CODEX_PATH_VARIABLES = ['CODEX_EXEC_PATH', 'CODEX_CLI_BIN', 'CODEX_PATH'] as const;

/**
 * The stem of the variables the API key is read from, in backends-kit's one precedence:
 * `<ROLE>_CODEX_API_KEY`, then `CODEX_API_KEY`, then OpenAI's own `OPENAI_API_KEY`.
 */
export const CODEX_API_KEY_STEM = 'CODEX';
export const CODEX_API_KEY_VARIABLE = `${CODEX_API_KEY_STEM}_API_KEY`;
export const OPENAI_API_KEY_VARIABLE = 'OPENAI_API_KEY';

/**
 * The model provider this package defines for every run (`-c model_providers.skillopt=…`): one
 * provider for OpenAI itself and for any other Responses endpoint, so Codex never falls back to
 * its built-in provider, which would try a WebSocket first and read the user's login.
 */
export const CODEX_MODEL_PROVIDER_ID = 'skillopt';

/** The variable Codex reads the key from (the provider's `env_key`); only the child process has it. */
export const CODEX_CHILD_API_KEY_VARIABLE = 'SKILLOPT_CODEX_API_KEY';
