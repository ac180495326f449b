import type { ModelRole } from '@skillopt/contract';
import type { PiApi, PiBackendConfig, PiThinkingLevel, PiTool, SkillPlacement } from './config-schema.js';
import { DEFAULT_PI_BASE_URL, DEFAULT_PI_COMMAND, DEFAULT_PI_MODEL } from './provider.js';

/** What one role's runs and calls start Pi with: the top level of `backends.pi`, overridden by its role section. */
export interface PiRoleSettings {
  role: ModelRole;
  modelId: string;
  /** The provider's base URL, without a trailing slash. */
  baseUrl: string;
  api: PiApi;
  command: string;
  thinking: PiThinkingLevel | undefined;
  timeoutMs: number;
  maxRetries: number;
  /** The configured tools; undefined: the default for the request's workspace access (see `toolsFor`). */
  tools: readonly PiTool[] | undefined;
  skillPlacement: SkillPlacement;
  skillName: string;
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then gpt-5.1.
 */
export function resolveRoleSettings(config: PiBackendConfig, role: ModelRole, requestedModelId?: string): PiRoleSettings {
  const section = config[role] ?? {};
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_PI_MODEL),
    baseUrl: (section.base_url ?? config.base_url ?? DEFAULT_PI_BASE_URL).replace(/\/+$/, ''),
    api: section.api ?? config.api ?? 'openai-completions',
    command: config.path ?? DEFAULT_PI_COMMAND,
    thinking: section.thinking ?? config.thinking,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    tools: config.tools,
    skillPlacement: config.skill_placement,
    skillName: config.skill_name,
  };
}
