import type { BackendCredentials, ModelRole } from '@skillopt/contract';
import { apiKeyVariables, apiKeyVariableToSet } from './environment-variables.js';
import { impliedPreset, presetNamed } from './implied-preset.js';
import { PRESET_IDS, PRESETS } from './presets.js';

/** A setting of a section (or its role sub-section) as written, before validation. */
function writtenSetting(section: unknown, role: ModelRole | undefined, key: string): unknown {
  const record = typeof section === 'object' && section !== null ? (section as Record<string, unknown>) : {};
  const own = role === undefined ? undefined : record[role];
  const ownValue = typeof own === 'object' && own !== null ? (own as Record<string, unknown>)[key] : undefined;
  return ownValue ?? record[key];
}

/**
 * The variables of this package's keys, from the preset table its code reads keys with, so that
 * `skillopt doctor` and core's warning about a key dropped from a config name what is really read.
 */
export const openAiCredentials: BackendCredentials = {
  variables: PRESET_IDS.flatMap((id) => [
    { name: apiKeyVariableToSet(id), usedBy: PRESETS[id].label },
    ...PRESETS[id].extraKeyVariables.map((name) => ({ name, usedBy: PRESETS[id].label })),
  ]),
  variableFor(section, role) {
    const named = writtenSetting(section, role, 'api_key_env');
    if (typeof named === 'string' && /^[A-Za-z_][A-Za-z0-9_]*$/.test(named)) return named;
    const baseUrl = writtenSetting(section, role, 'base_url');
    const preset = impliedPreset(presetNamed(writtenSetting(section, role, 'preset')), typeof baseUrl === 'string' ? baseUrl : undefined);
    return role === undefined ? apiKeyVariableToSet(preset) : (apiKeyVariables(preset, role)[0] as string);
  },
};
