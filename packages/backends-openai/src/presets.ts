/**
 * The providers this package reaches through the OpenAI SDK's Chat Completions, as presets: where
 * each one lives, what its models are called by default, which environment variables carry its
 * key and base URL, and which request dialect it speaks. `openai` is the default preset.
 */

/** Other spellings accepted in configs (including the original's backend names), lower-cased. */
export const PRESET_ALIASES = {
  azure_openai: 'azure',
  'azure-openai': 'azure',
  openai_chat: 'azure',
  qwen_chat: 'qwen',
  minimax_chat: 'minimax',
  'llama-cpp': 'llamacpp',
  llama_cpp: 'llamacpp',
  'llama.cpp': 'llamacpp',
  'openai-compatible': 'openai_compatible',
  openai_compatible_chat: 'openai_compatible',
  compat: 'openai_compatible',
} as const satisfies Readonly<Record<string, PresetId>>;

/** Every spelling a typed caller may pass as `preset`: the table's names and their aliases (a config file may also vary their case). */
export type PresetName = PresetId | keyof typeof PRESET_ALIASES;

/** How a preset's server takes the thinking switch (`thinking_mode`), if it has one. */
type ThinkingDialect = 'chat-template-kwargs' | 'minimax-thinking' | 'none';

export interface Preset {
  id: PresetId;
  /** Who it reaches, in words (`skillopt doctor` lists its key variable as used by it). */
  label: string;
  /** The `provider` of its ChatModels, which the price table is keyed on. */
  provider: string;
  /** Where requests go when neither the config nor the environment names a base URL. */
  defaultBaseUrl?: string;
  /** The model used when neither the run config (`model.target`/`model.optimizer`) nor this section names one. */
  defaultModel?: string;
  /** The stem of its environment variables: `<STEM>_API_KEY`, `<ROLE>_<STEM>_API_KEY`, `<STEM>_BASE_URL`. */
  environmentStem: string;
  /** Further variables holding its key, read after the stem's (a provider's own conventional name). */
  extraKeyVariables: readonly string[];
  /** Whether a call without a key is refused before it is sent (a hosted API) or allowed (a local server). */
  requiresApiKey: boolean;
  /** The output-token parameter its server understands. */
  maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
  thinking: ThinkingDialect;
  /** The temperature sent when neither the call nor the config sets one (the original's default), if any. */
  defaultTemperature?: number;
  /** Whether reasoning models are recognised by name (o-series, gpt-5…) to send `reasoning_effort`. */
  knowsOpenAiReasoningModels: boolean;
  /** A self-hosted server: no per-token charge, so its price table entry is 0 for every model. */
  local: boolean;
}

const PRESET_TABLE = {
  openai: {
    id: 'openai',
    label: 'OpenAI',
    provider: 'openai',
    defaultBaseUrl: 'https://api.openai.com/v1',
    defaultModel: 'gpt-4o',
    environmentStem: 'OPENAI',
    extraKeyVariables: [],
    requiresApiKey: true,
    maxTokensParameter: 'max_completion_tokens',
    thinking: 'none',
    knowsOpenAiReasoningModels: true,
    local: false,
  },
  azure: {
    id: 'azure',
    label: 'Azure OpenAI',
    provider: 'azure-openai',
    // No default: the endpoint is the user's own resource.
    defaultModel: 'gpt-4o',
    environmentStem: 'AZURE_OPENAI',
    extraKeyVariables: [],
    requiresApiKey: true,
    maxTokensParameter: 'max_completion_tokens',
    thinking: 'none',
    knowsOpenAiReasoningModels: true,
    local: false,
  },
  qwen: {
    id: 'qwen',
    label: 'Qwen',
    provider: 'qwen',
    // The original's default: a vLLM or SGLang server on this machine serving a Qwen model.
    defaultBaseUrl: 'http://localhost:8000/v1',
    defaultModel: 'Qwen/Qwen3.5-4B',
    environmentStem: 'QWEN_CHAT',
    extraKeyVariables: ['DASHSCOPE_API_KEY'],
    requiresApiKey: false,
    maxTokensParameter: 'max_tokens',
    thinking: 'chat-template-kwargs',
    defaultTemperature: 0.7,
    knowsOpenAiReasoningModels: false,
    local: false,
  },
  minimax: {
    id: 'minimax',
    label: 'MiniMax',
    provider: 'minimax',
    // From `region` (default global_en); see MINIMAX_REGIONS.
    defaultModel: 'MiniMax-M3',
    environmentStem: 'MINIMAX',
    extraKeyVariables: [],
    requiresApiKey: true,
    maxTokensParameter: 'max_tokens',
    thinking: 'minimax-thinking',
    defaultTemperature: 0.7,
    knowsOpenAiReasoningModels: false,
    local: false,
  },
  deepseek: {
    id: 'deepseek',
    label: 'DeepSeek',
    provider: 'deepseek',
    defaultBaseUrl: 'https://api.deepseek.com/v1',
    defaultModel: 'deepseek-chat',
    environmentStem: 'DEEPSEEK',
    extraKeyVariables: [],
    requiresApiKey: true,
    maxTokensParameter: 'max_tokens',
    thinking: 'none',
    knowsOpenAiReasoningModels: false,
    local: false,
  },
  vllm: {
    id: 'vllm',
    label: 'vLLM',
    provider: 'vllm',
    defaultBaseUrl: 'http://localhost:8000/v1',
    environmentStem: 'VLLM',
    extraKeyVariables: [],
    requiresApiKey: false,
    maxTokensParameter: 'max_tokens',
    thinking: 'chat-template-kwargs',
    knowsOpenAiReasoningModels: false,
    local: true,
  },
  ollama: {
    id: 'ollama',
    label: 'Ollama',
    provider: 'ollama',
    defaultBaseUrl: 'http://localhost:11434/v1',
    environmentStem: 'OLLAMA',
    extraKeyVariables: [],
    requiresApiKey: false,
    maxTokensParameter: 'max_tokens',
    thinking: 'none',
    knowsOpenAiReasoningModels: false,
    local: true,
  },
  llamacpp: {
    id: 'llamacpp',
    label: 'llama.cpp',
    provider: 'llamacpp',
    defaultBaseUrl: 'http://localhost:8080/v1',
    environmentStem: 'LLAMACPP',
    // llama-server's own variable for its --api-key.
    extraKeyVariables: ['LLAMA_API_KEY'],
    requiresApiKey: false,
    maxTokensParameter: 'max_tokens',
    thinking: 'chat-template-kwargs',
    knowsOpenAiReasoningModels: false,
    local: true,
  },
  openai_compatible: {
    id: 'openai_compatible',
    label: 'OpenAI-compatible servers',
    provider: 'openai-compatible',
    // No default: an explicit base_url (or OPENAI_COMPATIBLE_BASE_URL) says which server.
    environmentStem: 'OPENAI_COMPATIBLE',
    extraKeyVariables: [],
    requiresApiKey: false,
    maxTokensParameter: 'max_tokens',
    thinking: 'none',
    knowsOpenAiReasoningModels: false,
    local: false,
  },
} as const satisfies Readonly<Record<string, Omit<Preset, 'id'> & { id: string }>>;

/** The names of the presets: the keys of the table, so a preset added there is a name everywhere. */
export type PresetId = keyof typeof PRESET_TABLE;

export const PRESETS: Readonly<Record<PresetId, Preset>> = PRESET_TABLE;

/** The presets' names in the table's order (the order docs list them in). */
export const PRESET_IDS = Object.keys(PRESET_TABLE) as [PresetId, ...PresetId[]];

/** MiniMax's API regions (the original's names) and their base URLs. */
export const MINIMAX_REGIONS = {
  global_en: 'https://api.minimax.io/v1',
  cn_zh: 'https://api.minimaxi.com/v1',
} as const;

/** The Azure OpenAI API version used when neither the config nor the environment names one (the original's). */
export const DEFAULT_AZURE_API_VERSION = '2024-12-01-preview';
/** The Microsoft Entra ID scope of Azure OpenAI (Cognitive Services). */
export const DEFAULT_AZURE_AD_SCOPE = 'https://cognitiveservices.azure.com/.default';
