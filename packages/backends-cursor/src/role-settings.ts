import type { ModelRole } from '@skillopt/contract';
import { readEnvironmentSetting, type EnvironmentSource } from '@skillopt/backends-kit';
import type { CursorBackendConfig, SandboxSetting, SkillPlacement } from './config-schema.js';
import { CURSOR_PATH_VARIABLES, DEFAULT_CURSOR_COMMAND, DEFAULT_CURSOR_MODEL } from './provider.js';

/** What one role's runs and calls start Cursor with: the top level of `backends.cursor`, overridden by its role section. */
export interface CursorRoleSettings {
  role: ModelRole;
  modelId: string;
  command: string;
  timeoutMs: number;
  maxRetries: number;
  sandbox: SandboxSetting;
  skillPlacement: SkillPlacement;
  skillName: string;
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then composer-2.5. The command
 * is `path`, else the original's CURSOR_EXEC_PATH / SKILLOPT_SLEEP_CURSOR_PATH, else `cursor-agent`.
 */
export function resolveRoleSettings(
  config: CursorBackendConfig,
  role: ModelRole,
  environment: EnvironmentSource,
  requestedModelId?: string,
): CursorRoleSettings {
  const section = config[role] ?? {};
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_CURSOR_MODEL),
    command: config.path ?? readEnvironmentSetting(environment, CURSOR_PATH_VARIABLES)?.value ?? DEFAULT_CURSOR_COMMAND,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    sandbox: config.sandbox,
    skillPlacement: config.skill_placement,
    skillName: config.skill_name,
  };
}
