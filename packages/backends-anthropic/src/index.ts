export { manifest, createBackend, anthropicBackendPackage, type AnthropicBackend, type AnthropicBackendRuntime } from './backend.js';
export {
  anthropicBackendConfigSchema,
  anthropicRoleConfigSchema,
  MINIMUM_THINKING_BUDGET_TOKENS,
  type AnthropicBackendConfig,
  type AnthropicBackendConfigInput,
  type AnthropicRoleConfig,
} from './config-schema.js';
export { priceTable, type AnthropicModelPrice } from './price-table.js';
export { ANTHROPIC_PROVIDER, DEFAULT_ANTHROPIC_MODEL, DEFAULT_ANTHROPIC_BASE_URL, ANTHROPIC_API_KEY_STEM, ANTHROPIC_API_KEY_VARIABLE } from './provider.js';
export { createAnthropicChatModel, type AnthropicChatModelOptions, type RetryTiming } from './chat-model.js';
export { resolveRoleSettings, type AnthropicRoleSettings, type RateLimits } from './role-settings.js';
export { buildMessageParams, type MessageParamsPlan } from './message-params.js';
export { usageFromAnthropic, type AnthropicUsageFields } from './usage-mapping.js';
export { finishReasonOf } from './reply-result.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
