import type { ModelRole } from '@skillopt/contract';
import { readEnvironmentSetting, type EnvironmentSource } from '@skillopt/backends-kit';
import type { ApprovalPolicy, CodexBackendConfig, CodexReasoningEffort, SandboxMode, SkillPlacement } from './config-schema.js';
import { CODEX_PATH_VARIABLES, DEFAULT_CODEX_BASE_URL, DEFAULT_CODEX_COMMAND, DEFAULT_CODEX_MODEL } from './provider.js';

/** What one role's runs and calls start Codex with: the top level of `backends.codex`, overridden by its role section. */
export interface CodexRoleSettings {
  role: ModelRole;
  modelId: string;
  /** The Responses API base, without a trailing slash. */
  baseUrl: string;
  command: string;
  reasoningEffort: CodexReasoningEffort | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** The sandbox of a run that asks for read access only; see `sandboxFor`. */
  sandbox: SandboxMode;
  approvalPolicy: ApprovalPolicy;
  networkAccess: boolean;
  webSearch: boolean;
  skillPlacement: SkillPlacement;
  skillName: string;
  configOverrides: Readonly<Record<string, string>>;
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then gpt-5.1. The command is
 * `path`, else the original's CODEX_EXEC_PATH / CODEX_CLI_BIN / CODEX_PATH, else `codex`.
 */
export function resolveRoleSettings(config: CodexBackendConfig, role: ModelRole, environment: EnvironmentSource, requestedModelId?: string): CodexRoleSettings {
  const section = config[role] ?? {};
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_CODEX_MODEL),
    baseUrl: (section.base_url ?? config.base_url ?? DEFAULT_CODEX_BASE_URL).replace(/\/+$/, ''),
    command: config.path ?? readEnvironmentSetting(environment, CODEX_PATH_VARIABLES)?.value ?? DEFAULT_CODEX_COMMAND,
    reasoningEffort: section.reasoning_effort ?? config.reasoning_effort,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    sandbox: config.sandbox,
    approvalPolicy: config.approval_policy,
    networkAccess: config.network_access,
    webSearch: config.web_search,
    skillPlacement: config.skill_placement,
    skillName: config.skill_name,
    configOverrides: config.config_overrides ?? {},
  };
}
