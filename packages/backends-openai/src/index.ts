export { manifest, createBackend, openAiBackendPackage, type OpenAiBackend, type OpenAiBackendOptions } from './backend.js';
export { priceTable } from './price-table.js';
export { originalConfigFormat } from './original-config-format.js';
export {
  openAiBackendConfigSchema,
  openAiModelSettingsSchema,
  AUTH_MODES,
  OPENAI_ROLES,
  THINKING_MODES,
  type AuthMode,
  type OpenAiBackendConfig,
  type OpenAiBackendConfigInput,
  type OpenAiModelSettings,
  type OpenAiRole,
  type ThinkingMode,
} from './config-schema.js';
export {
  PRESETS,
  PRESET_IDS,
  MINIMAX_REGIONS,
  DEFAULT_AZURE_API_VERSION,
  DEFAULT_AZURE_AD_SCOPE,
  type Preset,
  type PresetId,
  type PresetName,
} from './presets.js';
export { createOpenAiChatModel, type OpenAiChatModel, type ChatModelRuntime } from './chat-model.js';
export {
  resolveModelSettings,
  DEFAULT_MAX_ATTEMPTS,
  DEFAULT_TIMEOUT_SECONDS,
  type ResolvedModelSettings,
  type ModelCredentials,
  type AzureConnection,
} from './resolve-model-settings.js';
export type { EnvironmentSource } from '@skillopt/backends-kit';
export { wireReasoningEffort } from './reasoning-models.js';
export { buildRequestBody, requestWarnings, type ChatCompletionBody } from './request-body.js';
export { readReply } from './reply.js';
export { providerErrorFromSdkFailure } from './sdk-errors.js';
export { createAzureTokenProvider, type AzureIdentityLoader } from './azure-identity.js';
