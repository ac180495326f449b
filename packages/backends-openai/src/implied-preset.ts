import { PRESET_ALIASES, PRESET_IDS, PRESETS, type PresetId } from './presets.js';
import { hostOf } from './safe-url.js';

/**
 * The preset named, else what the config's server says: a `base_url` of a host other than
 * OpenAI's is an OpenAI-compatible server (`openai_compatible`: its key optional, its prices
 * unknown), so `base_url` alone works against vLLM, Ollama or the simulator, and OPENAI_API_KEY
 * never travels to a server the config names. Otherwise OpenAI's API.
 */
export function impliedPreset(named: PresetId | undefined, baseUrl: string | undefined): PresetId {
  if (named !== undefined) return named;
  if (baseUrl !== undefined && hostOf(baseUrl) !== hostOf(PRESETS.openai.defaultBaseUrl as string)) return 'openai_compatible';
  return 'openai';
}

/** The preset a value as written in a config names (any accepted spelling), or undefined when it names none. */
export function presetNamed(value: unknown): PresetId | undefined {
  if (typeof value !== 'string') return undefined;
  const spelled = value.trim().toLowerCase();
  const id = (PRESET_ALIASES as Readonly<Record<string, PresetId>>)[spelled] ?? spelled;
  return (PRESET_IDS as readonly string[]).includes(id) ? (id as PresetId) : undefined;
}
