import type { ClaudeCodeCredential } from './credentials.js';
import { ANTHROPIC_BASE_URL_VARIABLE } from './provider.js';

/**
 * What Claude Code inherits from this process, by name; nothing else reaches it. The user's own
 * Claude Code settings, logins and memory stay out because CLAUDE_CONFIG_DIR points elsewhere.
 */
export const INHERITED_VARIABLES = ['PATH', 'HOME', 'TMPDIR', 'TEMP', 'TMP', 'LANG', 'LC_ALL', 'LC_CTYPE', 'SYSTEMROOT', 'USERPROFILE'] as const;

/** Turns off what Claude Code does beside the model calls of the run. */
const QUIET_VARIABLES: Readonly<Record<string, string>> = {
  // Telemetry, error reporting, update checks and the other calls to Anthropic's own hosts.
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
  DISABLE_AUTOUPDATER: '1',
  DISABLE_TELEMETRY: '1',
  DISABLE_ERROR_REPORTING: '1',
};

export interface ChildEnvironmentOptions {
  /** A fresh directory for Claude Code's state (settings, sessions, caches), removed after the run. */
  configDirectory: string;
  credential: ClaudeCodeCredential;
  apiOrigin: string | undefined;
  maxThinkingTokens: number | undefined;
  /** CLAUDE_CODE_MAX_OUTPUT_TOKENS, when a chat call caps its reply. */
  maxOutputTokens?: number | undefined;
  /** From the permission settings (IS_SANDBOX). */
  permissionEnvironment: Readonly<Record<string, string>>;
}

/** The variables set for one Claude Code process, on top of the inherited ones. */
export function childEnvironment(options: ChildEnvironmentOptions): Record<string, string> {
  return {
    ...QUIET_VARIABLES,
    CLAUDE_CONFIG_DIR: options.configDirectory,
    [options.credential.variable]: options.credential.value,
    ...(options.apiOrigin === undefined ? {} : { [ANTHROPIC_BASE_URL_VARIABLE]: options.apiOrigin }),
    ...(options.maxThinkingTokens === undefined ? {} : { MAX_THINKING_TOKENS: String(options.maxThinkingTokens) }),
    ...(options.maxOutputTokens === undefined ? {} : { CLAUDE_CODE_MAX_OUTPUT_TOKENS: String(options.maxOutputTokens) }),
    ...options.permissionEnvironment,
  };
}

/** The inherited names: the fixed list and the config's `pass_environment`. */
export function inheritedVariables(passEnvironment: readonly string[]): string[] {
  return [...new Set([...INHERITED_VARIABLES, ...passEnvironment])];
}
