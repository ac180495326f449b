import type { OpenAiRole } from './config-schema.js';
import { PRESETS, type PresetId } from './presets.js';

/**
 * Which environment variables this package reads, in order of precedence (the first non-empty one
 * wins). Role-specific names come first, so the target and the optimizer can use different keys or
 * servers; the names are the original's where it had them, so existing shells keep working.
 *
 * Secrets (API keys) are read from here only, never from a config file.
 */

/** The process environment, or a stand-in in tests. */
export type EnvironmentSource = Readonly<Record<string, string | undefined>>;

export interface FoundVariable {
  name: string;
  value: string;
}

/** The first of `names` that is set to something other than blanks. */
export function readFirstVariable(environment: EnvironmentSource, names: readonly string[]): FoundVariable | undefined {
  for (const name of names) {
    const value = environment[name]?.trim();
    if (value) return { name, value };
  }
  return undefined;
}

const upper = (role: OpenAiRole): string => role.toUpperCase();

/**
 * The variables that may hold the API key of `preset` for `role`, or only `apiKeyVariable` when the
 * config names one (`api_key_env`):
 * `<ROLE>_<STEM>_API_KEY`, (Azure: `AZURE_OPENAI_<ROLE>_API_KEY`), `<STEM>_API_KEY`, then the
 * provider's own conventional names (DASHSCOPE_API_KEY for Qwen, LLAMA_API_KEY for llama.cpp).
 */
export function apiKeyVariables(preset: PresetId, role: OpenAiRole, apiKeyVariable?: string): string[] {
  if (apiKeyVariable !== undefined) return [apiKeyVariable];
  const { environmentStem: stem, extraKeyVariables } = PRESETS[preset];
  return [
    `${upper(role)}_${stem}_API_KEY`,
    ...(preset === 'azure' ? [`AZURE_OPENAI_${upper(role)}_API_KEY`] : []),
    `${stem}_API_KEY`,
    ...extraKeyVariables,
  ];
}

/** `<ROLE>_<STEM>_BASE_URL`, `<STEM>_BASE_URL` (OPENAI_BASE_URL for the openai preset). */
export function baseUrlVariables(preset: PresetId, role: OpenAiRole): string[] {
  const { environmentStem: stem } = PRESETS[preset];
  return [`${upper(role)}_${stem}_BASE_URL`, `${stem}_BASE_URL`];
}

export type AzureSetting = 'ENDPOINT' | 'API_VERSION' | 'AUTH_MODE' | 'AD_SCOPE' | 'MANAGED_IDENTITY_CLIENT_ID';

/** The original's chain for an Azure setting: `<ROLE>_AZURE_OPENAI_<X>`, `AZURE_OPENAI_<ROLE>_<X>`, `AZURE_OPENAI_<X>`. */
export function azureVariables(setting: AzureSetting, role: OpenAiRole): string[] {
  return [`${upper(role)}_AZURE_OPENAI_${setting}`, `AZURE_OPENAI_${upper(role)}_${setting}`, `AZURE_OPENAI_${setting}`];
}

/** `<ROLE>_MINIMAX_REGION`, `MINIMAX_REGION`. */
export function minimaxRegionVariables(role: OpenAiRole): string[] {
  return [`${upper(role)}_MINIMAX_REGION`, 'MINIMAX_REGION'];
}
