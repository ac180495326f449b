import { settingVariables } from '@skillopt/backends-kit';
import type { OpenAiRole } from './config-schema.js';
import { PRESETS, type PresetId } from './presets.js';

/**
 * Which environment variables this package reads, in backends-kit's one precedence (a role's own
 * variable, then the shared one, then the provider's conventional names; the first that is set
 * wins). The names are the original's where it had them, so existing shells keep working.
 */

/**
 * The variables that may hold the API key of `preset` for `role`, or only `apiKeyVariable` when the
 * config names one (`api_key_env`): `<ROLE>_<STEM>_API_KEY`, (Azure: `AZURE_OPENAI_<ROLE>_API_KEY`),
 * `<STEM>_API_KEY`, then the provider's own names (DASHSCOPE_API_KEY for Qwen, LLAMA_API_KEY for
 * llama.cpp).
 */
export function apiKeyVariables(preset: PresetId, role: OpenAiRole, apiKeyVariable?: string): string[] {
  if (apiKeyVariable !== undefined) return [apiKeyVariable];
  const { environmentStem: stem, extraKeyVariables } = PRESETS[preset];
  return settingVariables({ stem, setting: 'API_KEY', role, roleAfterStem: preset === 'azure', conventionalNames: extraKeyVariables });
}

/** The one variable to name when a key is missing: the config's `api_key_env`, else the preset's shared `<STEM>_API_KEY` (every role reads it). */
export function apiKeyVariableToSet(preset: PresetId, apiKeyVariable?: string): string {
  return apiKeyVariable ?? `${PRESETS[preset].environmentStem}_API_KEY`;
}

/** `<ROLE>_<STEM>_BASE_URL`, `<STEM>_BASE_URL` (OPENAI_BASE_URL for the openai preset). */
export function baseUrlVariables(preset: PresetId, role: OpenAiRole): string[] {
  return settingVariables({ stem: PRESETS[preset].environmentStem, setting: 'BASE_URL', role });
}

export type AzureSetting = 'ENDPOINT' | 'API_VERSION' | 'AUTH_MODE' | 'AD_SCOPE' | 'MANAGED_IDENTITY_CLIENT_ID';

/** The original's chain for an Azure setting: `<ROLE>_AZURE_OPENAI_<X>`, `AZURE_OPENAI_<ROLE>_<X>`, `AZURE_OPENAI_<X>`. */
export function azureVariables(setting: AzureSetting, role: OpenAiRole): string[] {
  return settingVariables({ stem: 'AZURE_OPENAI', setting, role, roleAfterStem: true });
}

/** `<ROLE>_MINIMAX_REGION`, `MINIMAX_REGION`. */
export function minimaxRegionVariables(role: OpenAiRole): string[] {
  return settingVariables({ stem: 'MINIMAX', setting: 'REGION', role });
}
