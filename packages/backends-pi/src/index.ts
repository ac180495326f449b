export { manifest, createBackend, piBackendPackage, DEFAULT_PI_CONCURRENCY, type PiBackend, type PiBackendRuntime } from './backend.js';
export {
  piBackendConfigSchema,
  piRoleConfigSchema,
  PI_APIS,
  PI_THINKING_LEVELS,
  PI_TOOLS,
  SKILL_PLACEMENTS,
  type PiApi,
  type PiBackendConfig,
  type PiBackendConfigInput,
  type PiRoleConfig,
  type PiThinkingLevel,
  type PiTool,
  type SkillPlacement,
} from './config-schema.js';
export { originalConfigFormat } from './original-config-format.js';
export { priceTable } from './price-table.js';
export {
  ANTHROPIC_API_KEY_VARIABLE,
  DEFAULT_PI_BASE_URL,
  DEFAULT_PI_COMMAND,
  DEFAULT_PI_MODEL,
  OPENAI_API_KEY_VARIABLE,
  PI_API_KEY_VARIABLE,
  PI_CHILD_API_KEY_VARIABLE,
  PI_MODEL_PROVIDER_ID,
  PI_PROVIDER,
} from './provider.js';
export { resolveRoleSettings, type PiRoleSettings } from './role-settings.js';
export { PI_RUN_SETTINGS, piModelsFile, type PiModelEntry } from './agent-directory.js';
export { toolsFor } from './tool-selection.js';
export { piArguments, type PiExecution } from './pi-arguments.js';
export { PI_INHERITED_VARIABLES, piEnvironment } from './isolated-environment.js';
export { AGENTS_FILE, piSkillInstallation, skillsFolderPath } from './skill-placement.js';
export { readPiTranscript } from './pi-transcript.js';
export { classifyPiFailure } from './pi-failure.js';
export { usageFromPi, type PiUsageFields } from './usage-mapping.js';
export { renderChatPrompt, type PiChatPrompt } from './chat-prompt.js';
export { PI_AGENT_CAPABILITIES, createPiAgentRunner, type PiAgentRunnerOptions } from './agent-runner.js';
export { PI_CHAT_CAPABILITIES, createPiChatModel, type PiChatModelOptions } from './chat-model.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
