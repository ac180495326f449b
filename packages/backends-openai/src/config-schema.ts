import { z } from 'zod';
import { MINIMAX_REGIONS, PRESET_ALIASES, PRESET_IDS, type PresetId, type PresetName } from './presets.js';

/*
 * The `backends.openai` section of a run config. Keys are snake_case, as every config key. The
 * section holds settings for every role; `target`, `optimizer` and `judge` sub-sections hold the
 * same settings for one role and win over the section's. This is exactly the shape core's
 * translation of the original's flat keys produces (`model.azure_openai_endpoint` →
 * `endpoint`, `model.target_qwen_chat_thinking_mode` → `target.thinking_mode`, a role's backend
 * name → `preset`), including the original's string spellings of numbers and booleans ("8000",
 * "0.7", "false").
 *
 * No key holds a secret: API keys come from the environment only (see environment-variables.ts).
 */

const lowerCase = (value: unknown): unknown => (typeof value === 'string' ? value.trim().toLowerCase() : value);

/** A number, or a string that spells one ("8000", "0.7") as the original's YAML did. */
function numberFromConfig(schema: z.ZodNumber) {
  return z.preprocess((value) => (typeof value === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(value) ? Number(value) : value), schema);
}

const TRUE_WORDS = new Set(['true', 'yes', 'on', '1', 'enabled']);
const FALSE_WORDS = new Set(['false', 'no', 'off', '0', 'disabled']);

/** A boolean, or a string that spells one ("true", "false", "yes", "0") as the original's YAML did. */
const booleanFromConfig = z.preprocess((value) => {
  if (typeof value === 'string') {
    const word = value.trim().toLowerCase();
    if (TRUE_WORDS.has(word)) return true;
    if (FALSE_WORDS.has(word)) return false;
  }
  if (value === 1) return true;
  if (value === 0) return false;
  return value;
}, z.boolean());

// A preprocess erases the input type to `unknown`; typed callers (createBackend's config) get the
// table's names and aliases instead, while a config file may also vary their case and spacing.
const presetSchema = z.preprocess(
  (value) => {
    const spelled = lowerCase(value);
    return typeof spelled === 'string' ? ((PRESET_ALIASES as Readonly<Record<string, PresetId>>)[spelled] ?? spelled) : spelled;
  },
  z.enum(PRESET_IDS, { error: `preset must be one of ${PRESET_IDS.join(', ')}` }),
) as unknown as z.ZodType<PresetId, PresetName>;

export const THINKING_MODES = ['server_default', 'enabled', 'disabled'] as const;
export type ThinkingMode = (typeof THINKING_MODES)[number];

const thinkingModeSchema = z.preprocess(
  (value) => {
    if (value === true) return 'enabled';
    if (value === false) return 'disabled';
    const spelled = lowerCase(value);
    if (typeof spelled !== 'string') return spelled;
    const normalised = spelled.replace(/[-\s]+/g, '_');
    if (normalised === 'default' || normalised === 'server' || normalised === 'auto') return 'server_default';
    if (TRUE_WORDS.has(normalised)) return 'enabled';
    if (FALSE_WORDS.has(normalised)) return 'disabled';
    return normalised;
  },
  z.enum(THINKING_MODES, { error: 'thinking_mode must be server_default, enabled or disabled' }),
);

export const AUTH_MODES = ['auto', 'api_key', 'entra', 'managed_identity', 'azure_cli'] as const;
export type AuthMode = (typeof AUTH_MODES)[number];

const AUTH_MODE_ALIASES: Readonly<Record<string, AuthMode>> = {
  key: 'api_key',
  apikey: 'api_key',
  'api-key': 'api_key',
  aad: 'entra',
  azure_ad: 'entra',
  entra_id: 'entra',
  'entra-id': 'entra',
  default: 'entra',
  'managed-identity': 'managed_identity',
  managedidentity: 'managed_identity',
  msi: 'managed_identity',
  'azure-cli': 'azure_cli',
  az: 'azure_cli',
  cli: 'azure_cli',
};

const authModeSchema = z.preprocess(
  (value) => {
    const spelled = lowerCase(value);
    return typeof spelled === 'string' ? (AUTH_MODE_ALIASES[spelled] ?? spelled) : spelled;
  },
  z.enum(AUTH_MODES, {
    error:
      'auth_mode must be auto, api_key, entra, managed_identity or azure_cli (for a plain OpenAI-compatible server, use preset: openai_compatible with base_url instead)',
  }),
);

const regionSchema = z.preprocess(
  (value) => (typeof value === 'string' ? value.trim().toLowerCase().replace(/-/g, '_') : value),
  z.enum(Object.keys(MINIMAX_REGIONS) as [keyof typeof MINIMAX_REGIONS, ...(keyof typeof MINIMAX_REGIONS)[]], {
    error: `region must be one of ${Object.keys(MINIMAX_REGIONS).join(', ')}`,
  }),
);

/** `none`, `off`, `null` or an empty string mean "send no temperature" (the original's spelling). */
const temperatureSchema = z.preprocess(
  (value) => (typeof value === 'string' && ['', 'none', 'off', 'null', 'omit'].includes(value.trim().toLowerCase()) ? null : value),
  numberFromConfig(z.number().min(0).max(2)).nullable(),
);

const environmentVariableName = z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be the name of an environment variable, not its value');

const urlText = z
  .string()
  .trim()
  .refine((value) => /^https?:$/.test(parseUrl(value)?.protocol ?? ''), { error: 'must be an http(s) URL such as http://127.0.0.1:8000/v1' });

function parseUrl(value: string): URL | undefined {
  try {
    return new URL(value);
  } catch {
    return undefined;
  }
}

/** The settings a section and each role sub-section may hold; absent means "inherit, then the default". */
const openAiModelSettingsShape = {
  /** Which provider: openai (default), azure, qwen, minimax, deepseek, vllm, ollama, llamacpp, openai_compatible. */
  preset: presetSchema.optional(),
  /** The model of this role when the run config's model.<role> names none. */
  model: z.string().trim().min(1).optional(),
  /** Azure: the deployment to call; default the model id. */
  deployment: z.string().trim().min(1).optional(),
  /** The server's base URL, e.g. http://127.0.0.1:8000/v1 (everything but Azure). */
  base_url: urlText.optional(),
  /** Azure: the resource endpoint, e.g. https://my-resource.openai.azure.com. */
  endpoint: urlText.optional(),
  /** Azure: the API version (default 2024-12-01-preview). */
  api_version: z.string().trim().min(1).optional(),
  /** Azure: how to authenticate (default auto: a key when the environment has one, Microsoft Entra ID otherwise). */
  auth_mode: authModeSchema.optional(),
  /** Azure, Entra ID: the token scope (default https://cognitiveservices.azure.com/.default). */
  ad_scope: z.string().trim().min(1).optional(),
  /** Azure, managed identity: the client id of a user-assigned identity. */
  managed_identity_client_id: z.string().trim().min(1).optional(),
  /** The name of the environment variable that holds the API key, instead of the preset's chain. */
  api_key_env: environmentVariableName.optional(),
  /** MiniMax: global_en (default) or cn_zh. */
  region: regionSchema.optional(),
  /** Qwen and other chat-template servers, MiniMax: server_default, enabled or disabled. */
  thinking_mode: thinkingModeSchema.optional(),
  /** The original's boolean spelling of thinking (Qwen: true = enabled, false = server_default; MiniMax: false = disabled). */
  enable_thinking: booleanFromConfig.optional(),
  /** The temperature when a call sets none; none/off/null sends none. */
  temperature: temperatureSchema.optional(),
  /** The most output tokens a call may ask for (a call's own limit is capped by it). */
  max_tokens: numberFromConfig(z.number().int().positive()).optional(),
  /** Which output-token parameter the server understands (default by preset). */
  max_tokens_parameter: z.enum(['max_tokens', 'max_completion_tokens']).optional(),
  /** The original's Qwen switch: true sends max_completion_tokens instead of max_tokens. */
  use_max_completion_tokens: booleanFromConfig.optional(),
  /** Whether the model takes reasoning_effort and max_completion_tokens (auto: recognised by name on openai and azure). */
  reasoning_model: z.preprocess((value) => (value === 'auto' ? undefined : value), booleanFromConfig.optional()),
  /** Whether a call's JSON response format is sent as response_format (default true). */
  json_response_format: booleanFromConfig.optional(),
  /** The time one attempt may take, in seconds (default 300). */
  timeout_seconds: numberFromConfig(z.number().positive()).optional(),
  /** Attempts per call, the first included, for transient failures (default 5); a 429 is waited out without using one up. */
  max_attempts: numberFromConfig(z.number().int().min(1).max(20)).optional(),
  /** Calls in flight at once for this model. */
  max_concurrency: numberFromConfig(z.number().int().positive()).optional(),
  /** Calls started per rolling minute. */
  requests_per_minute: numberFromConfig(z.number().int().positive()).optional(),
  /** Tokens (input + output) per rolling minute. */
  tokens_per_minute: numberFromConfig(z.number().int().positive()).optional(),
};

export const openAiModelSettingsSchema = z.strictObject(openAiModelSettingsShape);
export type OpenAiModelSettings = z.output<typeof openAiModelSettingsSchema>;

export const OPENAI_ROLES = ['target', 'optimizer', 'judge'] as const;
export type OpenAiRole = (typeof OPENAI_ROLES)[number];

const sectionShape = {
  ...openAiModelSettingsShape,
  /** Settings of the target model only; they win over the section's. */
  target: openAiModelSettingsSchema.optional(),
  /** Settings of the optimizer model only. */
  optimizer: openAiModelSettingsSchema.optional(),
  /** Settings of a judge model only. */
  judge: openAiModelSettingsSchema.optional(),
};

type Section = z.output<z.ZodObject<typeof sectionShape>>;

/** The preset in force for a role: its own, else the section's, else openai. */
function presetOfRole(section: Section, role: OpenAiRole): PresetId {
  return section[role]?.preset ?? section.preset ?? 'openai';
}

/**
 * Records the Qwen thinking policy in the run config when nobody chose one, so config.json says
 * what was sent (`server_default`: no chat_template_kwargs, the server's own default). Idempotent,
 * so the recorded config validates to itself.
 */
function recordThinkingMode(section: Section): Section {
  const result: Section = { ...section };
  const saysThinking = (settings: OpenAiModelSettings | undefined): boolean => settings?.thinking_mode !== undefined || settings?.enable_thinking !== undefined;
  if (section.preset === 'qwen' && !saysThinking(section)) {
    const everyQwenRoleSilent = OPENAI_ROLES.every((role) => presetOfRole(section, role) !== 'qwen' || !saysThinking(section[role]));
    if (everyQwenRoleSilent) result.thinking_mode = 'server_default';
  }
  for (const role of OPENAI_ROLES) {
    const settings = section[role];
    if (settings?.preset !== 'qwen' || saysThinking(settings) || saysThinking(result)) continue;
    result[role] = { ...settings, thinking_mode: 'server_default' };
  }
  return result;
}

export const openAiBackendConfigSchema = z.strictObject(sectionShape).transform(recordThinkingMode);

/** The parsed `backends.openai` section. */
export type OpenAiBackendConfig = z.output<typeof openAiBackendConfigSchema>;
/** What a config file may contain for it (strings for numbers and booleans included). */
export type OpenAiBackendConfigInput = z.input<typeof openAiBackendConfigSchema>;
