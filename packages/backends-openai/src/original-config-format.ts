import type { OriginalConfigFormat, OriginalKeyFamily } from '@skillopt/contract';
import { DEFAULT_AZURE_AD_SCOPE, DEFAULT_AZURE_API_VERSION, PRESETS, type PresetId } from './presets.js';
import { apiKeyVariables } from './environment-variables.js';

/**
 * This package's slice of the original SkillOpt's config format, for core's translation of a
 * config written for the original. Three of its backends land here as presets, and their flat
 * keys (`model.azure_openai_endpoint`, `model.target_qwen_chat_base_url`, `model.minimax_region`,
 * with `optimizer_`/`target_` variants) keep their suffix as the key in `backends.openai` (or its
 * role sub-section): `endpoint`, `base_url`, `region`, … exactly as openAiBackendConfigSchema
 * names them, string spellings of numbers and booleans included.
 */

/** Where the key of a preset lives instead of a config file: each role's own variable first, then the shared one. */
function secretVariablesOf(preset: PresetId): OriginalKeyFamily['secretVariables'] {
  const roleVariable = (role: 'target' | 'optimizer'): string => apiKeyVariables(preset, role)[0] as string;
  return { shared: `${PRESETS[preset].environmentStem}_API_KEY`, target: roleVariable('target'), optimizer: roleVariable('optimizer') };
}

export const originalConfigFormat: OriginalConfigFormat = {
  // The original's names for what are presets here. openai_compatible implies none: the server is
  // whatever base_url names.
  backendNames: {
    openai_chat: { preset: 'azure' },
    qwen_chat: { preset: 'qwen' },
    minimax_chat: { preset: 'minimax' },
  },
  keyFamilies: [
    {
      prefix: 'azure_openai_',
      usedBy: ['openai_chat'],
      shippedDefaults: { api_version: DEFAULT_AZURE_API_VERSION, ad_scope: DEFAULT_AZURE_AD_SCOPE },
      secretVariables: secretVariablesOf('azure'),
    },
    { prefix: 'qwen_chat_', usedBy: ['qwen_chat'], secretVariables: secretVariablesOf('qwen') },
    {
      prefix: 'minimax_',
      usedBy: ['minimax_chat'],
      // The original read minimax_model as the target's model when the target was MiniMax.
      roleModelKeys: { model: 'target' },
      shippedDefaults: { model: 'MiniMax-M3', temperature: '0.7', max_tokens: '8000', enable_thinking: 'false' },
      secretVariables: secretVariablesOf('minimax'),
    },
  ],
};
