export {
  manifest,
  createBackend,
  opencodeBackendPackage,
  DEFAULT_OPENCODE_CONCURRENCY,
  type OpencodeBackend,
  type OpencodeBackendRuntime,
} from './backend.js';
export {
  opencodeBackendConfigSchema,
  opencodeRoleConfigSchema,
  SKILL_PLACEMENTS,
  type OpencodeBackendConfig,
  type OpencodeBackendConfigInput,
  type OpencodeRoleConfig,
  type SkillPlacement,
} from './config-schema.js';
export { priceTable } from './price-table.js';
export {
  DEFAULT_OPENCODE_BASE_URL,
  DEFAULT_OPENCODE_COMMAND,
  DEFAULT_OPENCODE_MODEL,
  OPENAI_API_KEY_VARIABLE,
  OPENCODE_AGENT_NAME,
  OPENCODE_API_KEY_VARIABLE,
  OPENCODE_CHILD_API_KEY_VARIABLE,
  OPENCODE_MODEL_PROVIDER_ID,
  OPENCODE_PATH_VARIABLES,
  OPENCODE_PROVIDER,
} from './provider.js';
export { resolveRoleSettings, type OpencodeRoleSettings } from './role-settings.js';
export { opencodeRunArguments, OPENCODE_SESSION_TITLE, type OpencodeExecution } from './opencode-arguments.js';
export { runConfig, type RunConfigOptions } from './run-config.js';
export { CHAT_PERMISSION, targetPermission, type OpencodePermission, type PermissionOptions } from './permissions.js';
export { OPENCODE_INHERITED_VARIABLES, inheritedVariables, opencodeEnvironment } from './isolated-environment.js';
export { AGENTS_FILE, opencodeSkillInstallation, renderSkillFile, skillsFolderPath } from './skill-placement.js';
export { readOpencodeTranscript } from './opencode-transcript.js';
export { classifyOpencodeError, type OpencodeError } from './opencode-failure.js';
export { usageFromOpencodeStep, type OpencodeStepTokens } from './usage-mapping.js';
export { OPENCODE_AGENT_CAPABILITIES, createOpencodeAgentRunner, type OpencodeAgentRunnerOptions } from './agent-runner.js';
export { OPENCODE_CHAT_CAPABILITIES, createOpencodeChatModel, type OpencodeChatModelOptions } from './chat-model.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
