/** The provider name this package reports on every runner, model, error and price. */
export const CLAUDE_CODE_PROVIDER = 'claude-code';

/** The model a role uses when neither the run config nor the role section names one (the original's default). */
export const DEFAULT_CLAUDE_CODE_MODEL = 'claude-sonnet-4-6';

/** The CLI started when the config names no `path`: `claude` on PATH. */
export const DEFAULT_CLAUDE_COMMAND = 'claude';

/** The stem of the API key's variables, in backends-kit's precedence: `<ROLE>_ANTHROPIC_API_KEY`, then `ANTHROPIC_API_KEY`. */
export const CLAUDE_CODE_API_KEY_STEM = 'ANTHROPIC';

/** The variable Claude Code reads its API key from (and the shared one of every role). */
export const ANTHROPIC_API_KEY_VARIABLE = 'ANTHROPIC_API_KEY';

/** A long-lived subscription token (`claude setup-token`), the alternative to an API key. */
export const CLAUDE_CODE_OAUTH_TOKEN_VARIABLE = 'CLAUDE_CODE_OAUTH_TOKEN';

/** The variable Claude Code reads its API origin from (no `/v1`). */
export const ANTHROPIC_BASE_URL_VARIABLE = 'ANTHROPIC_BASE_URL';
