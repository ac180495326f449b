/** The provider name this package reports on every runner, model, error and price. */
export const PI_PROVIDER = 'pi';

/**
 * The model Pi is told to use when neither the run config (`model.target` / `model.optimizer`)
 * nor a role section of `backends.pi` names one: a model of OpenAI's API whose price is known.
 */
export const DEFAULT_PI_MODEL = 'gpt-5.1';

/** OpenAI's API, spoken over Chat Completions by default; `base_url` replaces it (a gateway, `skillopt sim serve`). */
export const DEFAULT_PI_BASE_URL = 'https://api.openai.com/v1';

/** The command started when `backends.pi.path` names no other (the npm package's bin). */
export const DEFAULT_PI_COMMAND = 'pi';

/**
 * The stem of the variables the API key is read from, in backends-kit's one precedence:
 * `<ROLE>_PI_API_KEY`, then `PI_API_KEY`, then the key of the API the provider speaks
 * (`OPENAI_API_KEY`, or `ANTHROPIC_API_KEY` for anthropic-messages).
 */
export const PI_API_KEY_STEM = 'PI';
export const PI_API_KEY_VARIABLE = `${PI_API_KEY_STEM}_API_KEY`;
export const OPENAI_API_KEY_VARIABLE = 'OPENAI_API_KEY';
export const ANTHROPIC_API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';

/**
 * The provider this package writes into every run's models.json: one provider for OpenAI itself,
 * Anthropic, or any other endpoint, so Pi never uses a built-in provider (which reads the user's
 * keys and logins).
 */
export const PI_MODEL_PROVIDER_ID = 'skillopt';

/** The variable the provider's `apiKey` names (Pi resolves it at run time); only the child process has it. */
export const PI_CHILD_API_KEY_VARIABLE = 'SKILLOPT_PI_API_KEY';
