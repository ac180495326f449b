import { HARNESS_INHERITED_VARIABLES } from '@skillopt/backends-kit';
import type { CopilotRoleSettings } from './role-settings.js';
import { COPILOT_API_KEY_VARIABLE } from './provider.js';

/**
 * The variables a Copilot process inherits from this one, and nothing else: the PATH (to find Node
 * and the shell), HOME and XDG_CACHE_HOME (where Copilot keeps the package it unpacked on its first
 * run, about 235 MB, shared by every run rather than unpacked again), the locale and time zone,
 * the temp folder, and the proxy and certificate settings a network may need. Every key, token
 * and login of the user's environment stays out (COPILOT_GITHUB_TOKEN, GH_TOKEN, COPILOT_ALLOW_ALL…).
 */
export const COPILOT_INHERITED_VARIABLES: readonly string[] = [...HARNESS_INHERITED_VARIABLES, 'HOME', 'XDG_CACHE_HOME', 'USERPROFILE', 'LOCALAPPDATA'];

/**
 * What is set for a Copilot process on top: its state folder of this run as COPILOT_HOME (config,
 * sessions, logs, the session store; never the user's `~/.copilot`), offline mode (no GitHub
 * login, telemetry, web tools, GitHub MCP server or auto-update), and the BYOK provider: its URL,
 * type, wire API, key and model.
 */
export function copilotEnvironment(settings: CopilotRoleSettings, copilotHome: string, apiKey: string): Record<string, string> {
  return {
    COPILOT_HOME: copilotHome,
    COPILOT_OFFLINE: 'true',
    COPILOT_AUTO_UPDATE: 'false',
    COPILOT_PROVIDER_BASE_URL: settings.baseUrl,
    COPILOT_PROVIDER_TYPE: settings.providerType,
    ...(settings.providerType === 'anthropic' ? {} : { COPILOT_PROVIDER_WIRE_API: settings.wireApi }),
    [COPILOT_API_KEY_VARIABLE]: apiKey,
    COPILOT_MODEL: settings.modelId,
    NO_COLOR: '1',
    TERM: 'dumb',
  };
}
