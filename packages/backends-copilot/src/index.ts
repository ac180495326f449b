export { manifest, createBackend, copilotBackendPackage, DEFAULT_COPILOT_CONCURRENCY, type CopilotBackend, type CopilotBackendRuntime } from './backend.js';
export {
  copilotBackendConfigSchema,
  copilotRoleConfigSchema,
  COPILOT_REASONING_EFFORTS,
  DEFAULT_AVAILABLE_TOOLS,
  PROVIDER_TYPES,
  SKILL_PLACEMENTS,
  WIRE_APIS,
  type CopilotBackendConfig,
  type CopilotBackendConfigInput,
  type CopilotReasoningEffort,
  type CopilotRoleConfig,
  type ProviderType,
  type SkillPlacement,
  type WireApi,
} from './config-schema.js';
export { originalConfigFormat } from './original-config-format.js';
export { priceTable } from './price-table.js';
export {
  COPILOT_API_KEY_VARIABLE,
  COPILOT_PATH_VARIABLES,
  COPILOT_PROVIDER,
  DEFAULT_COPILOT_BASE_URL,
  DEFAULT_COPILOT_COMMAND,
  DEFAULT_COPILOT_MODEL,
} from './provider.js';
export { resolveRoleSettings, type CopilotRoleSettings } from './role-settings.js';
export { copilotArguments, targetTools, NO_TOOLS, SKILL_TOOL, WRITE_TOOLS, type CopilotExecution } from './copilot-arguments.js';
export { COPILOT_INHERITED_VARIABLES, copilotEnvironment } from './isolated-environment.js';
export { COPILOT_INSTRUCTIONS_FILE, copilotSkillInstallation, renderSkillFile, skillsFolderPath } from './skill-placement.js';
export { readCopilotTranscript, readUsageReport } from './copilot-transcript.js';
export { classifyCopilotFailure, type CopilotSessionError } from './copilot-failure.js';
export { usageFromCopilot, usageFromReport, type CopilotUsageFields } from './usage-report.js';
export { MESSAGE_SEPARATOR, renderChatPrompt } from './chat-prompt.js';
export {
  COPILOT_AGENT_CAPABILITIES,
  COPILOT_TERMINATION_GRACE_MS,
  createCopilotAgentRunner,
  withCopilotRunFolder,
  type CopilotAgentRunnerOptions,
  type CopilotRunFolder,
} from './agent-runner.js';
export { COPILOT_CHAT_CAPABILITIES, createCopilotChatModel, type CopilotChatModelOptions } from './chat-model.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
