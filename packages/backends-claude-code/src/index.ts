export { manifest, createBackend, claudeCodeBackendPackage, type ClaudeCodeBackend, type ClaudeCodeBackendRuntime } from './backend.js';
export {
  claudeCodeBackendConfigSchema,
  claudeCodeRoleConfigSchema,
  EFFORTS,
  PERMISSION_MODES,
  SKILL_PLACEMENTS,
  type ClaudeCodeBackendConfig,
  type ClaudeCodeBackendConfigInput,
  type ClaudeCodeEffort,
  type ClaudeCodeRoleConfig,
  type PermissionMode,
  type SkillPlacement,
} from './config-schema.js';
export { priceTable } from './price-table.js';
export {
  CLAUDE_CODE_PROVIDER,
  DEFAULT_CLAUDE_CODE_MODEL,
  DEFAULT_CLAUDE_COMMAND,
  ANTHROPIC_API_KEY_VARIABLE,
  CLAUDE_CODE_OAUTH_TOKEN_VARIABLE,
} from './provider.js';
export { createClaudeCodeAgentRunner, type ClaudeCodeAgentRunnerOptions } from './agent-runner.js';
export { createClaudeCodeChatModel, type ClaudeCodeChatModelOptions } from './chat-model.js';
export { resolveRoleSettings, type ClaudeCodeRoleSettings } from './role-settings.js';
export { runPermissions, type RunPermissions, type PermissionOptions } from './permissions.js';
export { targetArguments, chatArguments, type TargetArgumentsOptions, type ChatArgumentsOptions } from './command-arguments.js';
export { childEnvironment, INHERITED_VARIABLES, inheritedVariables, type ChildEnvironmentOptions } from './child-environment.js';
export { claudeCodeSkillInstallation, skillFilePath, renderProjectSkill } from './skill-placement.js';
export { readClaudeTranscript } from './transcript-translation.js';
export { usageFromModelUsage, usageFromResultUsage } from './usage-mapping.js';
export { buildChatPrompt, type ChatPrompt } from './chat-prompt.js';
export { readCredential, type ClaudeCodeCredential } from './credentials.js';
/** Where credentials are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
