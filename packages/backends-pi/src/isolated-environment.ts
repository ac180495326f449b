import { HARNESS_INHERITED_VARIABLES } from '@skillopt/backends-kit';
import { PI_CHILD_API_KEY_VARIABLE } from './provider.js';

/**
 * The variables a Pi process inherits from this one, and nothing else: the PATH (to find Node and
 * the shell), the locale and time zone, the temp folder, and the proxy and certificate settings a
 * network may need. Every key, token and login of the user's environment stays out (Pi would
 * otherwise read OPENAI_API_KEY, ANTHROPIC_API_KEY and a score of others for its own providers).
 */
export const PI_INHERITED_VARIABLES: readonly string[] = HARNESS_INHERITED_VARIABLES;

/**
 * What is set for a Pi process on top: the run's own home (HOME, so neither Pi nor the commands
 * it runs read the user's dotfiles) with its agent directory (PI_CODING_AGENT_DIR: models,
 * settings, and no sessions, skills or extensions of the user's), Pi's offline switches (no
 * version check, no package update check, no telemetry), and the API key in the variable our
 * provider names.
 */
export function piEnvironment(home: string, agentDirectory: string, apiKey: string): Record<string, string> {
  return {
    HOME: home,
    PI_CODING_AGENT_DIR: agentDirectory,
    PI_OFFLINE: '1',
    PI_SKIP_VERSION_CHECK: '1',
    PI_TELEMETRY: '0',
    TERM: 'dumb',
    NO_COLOR: '1',
    [PI_CHILD_API_KEY_VARIABLE]: apiKey,
  };
}
