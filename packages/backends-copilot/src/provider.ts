/** The provider name this package reports on every runner, model, error and price. */
export const COPILOT_PROVIDER = 'copilot';

/**
 * The model Copilot is told to use (COPILOT_MODEL) when neither the run config (`model.target` /
 * `model.optimizer`) nor a role section of `backends.copilot` names one: BYOK needs a model, and
 * this one's price is known.
 */
export const DEFAULT_COPILOT_MODEL = 'gpt-5.1';

/** The model provider's API base (COPILOT_PROVIDER_BASE_URL); `base_url` replaces it (a gateway, `skillopt sim serve`). */
export const DEFAULT_COPILOT_BASE_URL = 'https://api.openai.com/v1';

/** The command started when neither `backends.copilot.path` nor one of COPILOT_PATH_VARIABLES names another. */
export const DEFAULT_COPILOT_COMMAND = 'copilot';

/** The original SkillOpt's variable for the Copilot binary, read after `backends.copilot.path`. */
export const COPILOT_PATH_VARIABLES = ['COPILOT_EXEC_PATH'] as const;

/**
 * The stem of the variables the provider's API key is read from, in backends-kit's one precedence:
 * `<ROLE>_COPILOT_PROVIDER_API_KEY`, then `COPILOT_PROVIDER_API_KEY` (Copilot's own name for it).
 */
export const COPILOT_API_KEY_STEM = 'COPILOT_PROVIDER';
export const COPILOT_API_KEY_VARIABLE = `${COPILOT_API_KEY_STEM}_API_KEY`;
