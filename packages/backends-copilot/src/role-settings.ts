import type { ModelRole } from '@skillopt/contract';
import { readEnvironmentSetting, type EnvironmentSource } from '@skillopt/backends-kit';
import type { CopilotBackendConfig, CopilotReasoningEffort, ProviderType, SkillPlacement, WireApi } from './config-schema.js';
import { COPILOT_PATH_VARIABLES, DEFAULT_COPILOT_BASE_URL, DEFAULT_COPILOT_COMMAND, DEFAULT_COPILOT_MODEL } from './provider.js';

/** What one role's runs and calls start Copilot with: the top level of `backends.copilot`, overridden by its role section. */
export interface CopilotRoleSettings {
  role: ModelRole;
  modelId: string;
  /** The provider's API base, without a trailing slash. */
  baseUrl: string;
  providerType: ProviderType;
  wireApi: WireApi;
  command: string;
  reasoningEffort: CopilotReasoningEffort | undefined;
  timeoutMs: number;
  maxRetries: number;
  skillPlacement: SkillPlacement;
  skillName: string;
  availableTools: readonly string[];
  allowAllTools: boolean;
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then gpt-5.1. The command is
 * `path`, else the original's COPILOT_EXEC_PATH, else `copilot`.
 */
export function resolveRoleSettings(
  config: CopilotBackendConfig,
  role: ModelRole,
  environment: EnvironmentSource,
  requestedModelId?: string,
): CopilotRoleSettings {
  const section = config[role] ?? {};
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_COPILOT_MODEL),
    baseUrl: (section.base_url ?? config.base_url ?? DEFAULT_COPILOT_BASE_URL).replace(/\/+$/, ''),
    providerType: config.provider_type,
    wireApi: config.wire_api,
    command: config.path ?? readEnvironmentSetting(environment, COPILOT_PATH_VARIABLES)?.value ?? DEFAULT_COPILOT_COMMAND,
    reasoningEffort: section.reasoning_effort ?? config.reasoning_effort,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    skillPlacement: config.skill_placement,
    skillName: config.skill_name,
    availableTools: config.available_tools,
    allowAllTools: config.allow_all_tools,
  };
}
