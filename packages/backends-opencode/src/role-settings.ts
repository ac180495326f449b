import type { ModelRole } from '@skillopt/contract';
import { readEnvironmentSetting, type EnvironmentSource } from '@skillopt/backends-kit';
import type { OpencodeBackendConfig, SkillPlacement } from './config-schema.js';
import { DEFAULT_OPENCODE_BASE_URL, DEFAULT_OPENCODE_COMMAND, DEFAULT_OPENCODE_MODEL, OPENCODE_PATH_VARIABLES } from './provider.js';

/** What one role's runs and calls start OpenCode with: the top level of `backends.opencode`, overridden by its role section. */
export interface OpencodeRoleSettings {
  role: ModelRole;
  modelId: string;
  /** The Chat Completions base, without a trailing slash. */
  baseUrl: string;
  command: string;
  variant: string | undefined;
  timeoutMs: number;
  maxRetries: number;
  skillPlacement: SkillPlacement;
  skillName: string;
  allowBash: boolean;
  allowedTools: readonly string[] | undefined;
  passEnvironment: readonly string[];
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then gpt-5.1. The command is
 * `path`, else the original's SKILLOPT_SLEEP_OPENCODE_PATH, else `opencode`.
 */
export function resolveRoleSettings(
  config: OpencodeBackendConfig,
  role: ModelRole,
  environment: EnvironmentSource,
  requestedModelId?: string,
): OpencodeRoleSettings {
  const section = config[role] ?? {};
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_OPENCODE_MODEL),
    baseUrl: (section.base_url ?? config.base_url ?? DEFAULT_OPENCODE_BASE_URL).replace(/\/+$/, ''),
    command: config.path ?? readEnvironmentSetting(environment, OPENCODE_PATH_VARIABLES)?.value ?? DEFAULT_OPENCODE_COMMAND,
    variant: section.variant ?? config.variant,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    skillPlacement: config.skill_placement,
    skillName: config.skill_name,
    allowBash: config.allow_bash,
    allowedTools: config.allowed_tools,
    passEnvironment: config.pass_environment,
  };
}
