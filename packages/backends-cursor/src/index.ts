export { manifest, createBackend, cursorBackendPackage, DEFAULT_CURSOR_CONCURRENCY, type CursorBackend, type CursorBackendRuntime } from './backend.js';
export {
  cursorBackendConfigSchema,
  cursorRoleConfigSchema,
  SANDBOX_SETTINGS,
  SKILL_PLACEMENTS,
  type CursorBackendConfig,
  type CursorBackendConfigInput,
  type CursorRoleConfig,
  type SandboxSetting,
  type SkillPlacement,
} from './config-schema.js';
export { originalConfigFormat } from './original-config-format.js';
export { priceTable } from './price-table.js';
export { CURSOR_API_KEY_VARIABLE, CURSOR_PATH_VARIABLES, CURSOR_PROVIDER, DEFAULT_CURSOR_COMMAND, DEFAULT_CURSOR_MODEL } from './provider.js';
export { resolveRoleSettings, type CursorRoleSettings } from './role-settings.js';
export { cursorArguments, type CursorExecution } from './command-arguments.js';
export { CLI_CONFIG_FILE, cursorCliConfig, type CursorRunKind } from './cli-config.js';
export { CURSOR_INHERITED_VARIABLES, cursorEnvironment, type CursorRuntime } from './isolated-environment.js';
export { AGENTS_FILE, cursorSkillInstallation, renderRuleFile, rulePath } from './skill-placement.js';
export { readCursorTranscript } from './cursor-transcript.js';
export { classifyCursorFailure } from './cursor-failure.js';
export { usageFromCursor, type CursorUsageFields } from './usage-mapping.js';
export { renderChatPrompt, type CursorChatPrompt } from './chat-prompt.js';
export { CURSOR_AGENT_CAPABILITIES, createCursorAgentRunner, type CursorAgentRunnerOptions } from './agent-runner.js';
export { CURSOR_CHAT_CAPABILITIES, createCursorChatModel, type CursorChatModelOptions } from './chat-model.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
