import type { ModelRole } from '@skillopt/contract';
import { backendConfigError, readEnvironmentSetting, settingVariables, type EnvironmentSource } from '@skillopt/backends-kit';
import { CLAUDE_CODE_API_KEY_STEM, CLAUDE_CODE_OAUTH_TOKEN_VARIABLE } from './provider.js';

/** How Claude Code authenticates one role: the variable it is given and its value. */
export interface ClaudeCodeCredential {
  /** `ANTHROPIC_API_KEY` or `CLAUDE_CODE_OAUTH_TOKEN`, as Claude Code reads it. */
  variable: string;
  value: string;
}

/** The variables an API key is read from for `role`, in precedence order. */
export function apiKeyVariables(role: ModelRole): string[] {
  return settingVariables({ stem: CLAUDE_CODE_API_KEY_STEM, setting: 'API_KEY', role });
}

/**
 * The role's credential: an API key (`<ROLE>_ANTHROPIC_API_KEY`, `ANTHROPIC_API_KEY`), else a
 * subscription token (`CLAUDE_CODE_OAUTH_TOKEN`). A login stored in the user's own Claude Code
 * config is never used: every run has a fresh config directory. Missing: a config error before any run.
 */
export function readCredential(environment: EnvironmentSource, role: ModelRole): ClaudeCodeCredential {
  const variables = apiKeyVariables(role);
  const key = readEnvironmentSetting(environment, variables);
  if (key) return { variable: 'ANTHROPIC_API_KEY', value: key.value };
  const token = readEnvironmentSetting(environment, [CLAUDE_CODE_OAUTH_TOKEN_VARIABLE]);
  if (token) return { variable: CLAUDE_CODE_OAUTH_TOKEN_VARIABLE, value: token.value };
  throw backendConfigError(
    'claude-code',
    `no credential for the ${role} in the environment: set ${[...variables, CLAUDE_CODE_OAUTH_TOKEN_VARIABLE].join(' or ')} (any non-empty value works against \`skillopt sim serve\`)`,
    { variables: [...variables, CLAUDE_CODE_OAUTH_TOKEN_VARIABLE], role },
  );
}

/** The API origin: the config's, else the role's or the shared ANTHROPIC_BASE_URL, else none (Claude Code's own default). */
export function readApiOrigin(environment: EnvironmentSource, role: ModelRole, configured: string | undefined): string | undefined {
  if (configured !== undefined) return configured;
  return readEnvironmentSetting(environment, settingVariables({ stem: 'ANTHROPIC', setting: 'BASE_URL', role }))?.value.replace(/\/+$/, '') ?? undefined;
}
