/** The provider name this package reports on every runner, model, error and price. */
export const OPENCODE_PROVIDER = 'opencode';

/**
 * The model OpenCode is told to use when neither the run config (`model.target` /
 * `model.optimizer`) nor a role section of `backends.opencode` names one: a model of OpenAI's API
 * whose price is known.
 */
export const DEFAULT_OPENCODE_MODEL = 'gpt-5.1';

/** A Chat Completions API (OpenCode's `@ai-sdk/openai-compatible` provider adds `/chat/completions`); `base_url` replaces it. */
export const DEFAULT_OPENCODE_BASE_URL = 'https://api.openai.com/v1';

/** The command started when neither `backends.opencode.path` nor one of OPENCODE_PATH_VARIABLES names another. */
export const DEFAULT_OPENCODE_COMMAND = 'opencode';

/** The original SkillOpt-Sleep's variable for the OpenCode binary, read after `backends.opencode.path`. */
export const OPENCODE_PATH_VARIABLES = ['SKILLOPT_SLEEP_OPENCODE_PATH'] as const;

/**
 * The stem of the variables the API key is read from, in backends-kit's one precedence:
 * `<ROLE>_OPENCODE_API_KEY`, then `OPENCODE_API_KEY`, then OpenAI's own `OPENAI_API_KEY`.
 */
export const OPENCODE_API_KEY_STEM = 'OPENCODE';
export const OPENCODE_API_KEY_VARIABLE = `${OPENCODE_API_KEY_STEM}_API_KEY`;
export const OPENAI_API_KEY_VARIABLE = 'OPENAI_API_KEY';

/**
 * The model provider this package defines in every run's config (`provider.skillopt`): the
 * OpenAI-compatible SDK OpenCode bundles, pointed at the role's base URL, so OpenCode never falls
 * back to a provider of its own catalogue or to a login of the user's.
 */
export const OPENCODE_MODEL_PROVIDER_ID = 'skillopt';

/** The npm package of that provider; OpenCode bundles it, so nothing is installed. */
export const OPENCODE_PROVIDER_PACKAGE = '@ai-sdk/openai-compatible';

/** The variable OpenCode reads the key from (`{env:…}` in the provider's options); only the child process has it. */
export const OPENCODE_CHILD_API_KEY_VARIABLE = 'SKILLOPT_OPENCODE_API_KEY';

/** The agent every run uses, defined in the run's config with its permissions deny-by-default. */
export const OPENCODE_AGENT_NAME = 'skillopt';
