export { manifest, createBackend, codexBackendPackage, DEFAULT_CODEX_CONCURRENCY, type CodexBackend, type CodexBackendRuntime } from './backend.js';
export {
  codexBackendConfigSchema,
  codexRoleConfigSchema,
  APPROVAL_POLICIES,
  CODEX_REASONING_EFFORTS,
  SANDBOX_MODES,
  SKILL_PLACEMENTS,
  type ApprovalPolicy,
  type CodexBackendConfig,
  type CodexBackendConfigInput,
  type CodexReasoningEffort,
  type CodexRoleConfig,
  type SandboxMode,
  type SkillPlacement,
} from './config-schema.js';
export { originalConfigFormat } from './original-config-format.js';
export { priceTable } from './price-table.js';
export {
  CODEX_API_KEY_VARIABLE,
  CODEX_CHILD_API_KEY_VARIABLE,
  CODEX_MODEL_PROVIDER_ID,
  CODEX_PATH_VARIABLES,
  CODEX_PROVIDER,
  DEFAULT_CODEX_BASE_URL,
  DEFAULT_CODEX_COMMAND,
  DEFAULT_CODEX_MODEL,
  OPENAI_API_KEY_VARIABLE,
} from './provider.js';
export { resolveRoleSettings, type CodexRoleSettings } from './role-settings.js';
export { sandboxFor } from './sandbox-mode.js';
export { codexExecArguments, type CodexExecution } from './codex-arguments.js';
export { codexSearchPath, shippedBubblewrap } from './bubblewrap-compatibility.js';
export { CODEX_INHERITED_VARIABLES, codexEnvironment } from './isolated-environment.js';
export { AGENTS_FILE, codexSkillInstallation, renderSkillFile, skillsFolderPath } from './skill-placement.js';
export { readCodexTranscript } from './codex-transcript.js';
export { classifyCodexFailure } from './codex-failure.js';
export { usageFromCodex, type CodexUsageFields } from './usage-mapping.js';
export { renderChatPrompt, type CodexChatPrompt } from './chat-prompt.js';
export { CODEX_AGENT_CAPABILITIES, createCodexAgentRunner, type CodexAgentRunnerOptions } from './agent-runner.js';
export { CODEX_CHAT_CAPABILITIES, createCodexChatModel, type CodexChatModelOptions } from './chat-model.js';
/** Where API keys are read from: the process environment or a stand-in (backends-kit's `EnvironmentSource`). */
export type { EnvironmentSource as EnvironmentVariables } from '@skillopt/backends-kit';
