import { HARNESS_INHERITED_VARIABLES } from '@skillopt/backends-kit';
import { codexSearchPath } from './bubblewrap-compatibility.js';
import { CODEX_CHILD_API_KEY_VARIABLE } from './provider.js';

/**
 * The variables a Codex process inherits from this one, and nothing else: the PATH (to find Node
 * and the shell), the locale and time zone, the temp folder, and the proxy and certificate
 * settings a network may need. Every key, token and login of the user's environment stays out.
 */
export const CODEX_INHERITED_VARIABLES: readonly string[] = HARNESS_INHERITED_VARIABLES;

/**
 * What is set for a Codex process on top: its state folder of this run as both CODEX_HOME and
 * HOME (so neither Codex nor the login shell it runs commands in reads or writes the user's own
 * `~/.codex` or dotfiles), the API key in the variable our model provider names, and, where the
 * system's bubblewrap is too old for Codex, a PATH that puts Codex's own first (`codexSearchPath`).
 */
export function codexEnvironment(home: string, apiKey: string, command?: string): Record<string, string> {
  const searchPath = command === undefined ? undefined : codexSearchPath(command);
  return { CODEX_HOME: home, HOME: home, TERM: 'dumb', [CODEX_CHILD_API_KEY_VARIABLE]: apiKey, ...(searchPath === undefined ? {} : { PATH: searchPath }) };
}
