/** The provider name this package reports on every model, error and price. */
export const ANTHROPIC_PROVIDER = 'anthropic';

/**
 * The model used when neither the run config (`model.target` / `model.optimizer`) nor this
 * backend's role section names one. It is the original SkillOpt's default Claude model and is not
 * on the SDK's list of deprecated ids (which makes the SDK print a warning on every call).
 */
export const DEFAULT_ANTHROPIC_MODEL = 'claude-sonnet-4-6';

/** The public Anthropic API; `base_url` replaces it (a proxy, a gateway, the simulator). */
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/**
 * The stem of the variables the API key is read from, in backends-kit's one precedence:
 * `<ROLE>_ANTHROPIC_API_KEY` (a role's own key), then `ANTHROPIC_API_KEY`. The key is never read
 * from a config, and never appears in a log or an error.
 */
export const ANTHROPIC_API_KEY_STEM = 'ANTHROPIC';

/** The variable that holds the key of every role without its own. */
export const ANTHROPIC_API_KEY_VARIABLE = `${ANTHROPIC_API_KEY_STEM}_API_KEY`;
