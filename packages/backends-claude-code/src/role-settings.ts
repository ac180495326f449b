import type { ModelRole } from '@skillopt/contract';
import type { ClaudeCodeBackendConfig, ClaudeCodeEffort } from './config-schema.js';
import { DEFAULT_CLAUDE_CODE_MODEL } from './provider.js';

const DEFAULT_CHAT_TIMEOUT_MS = 600_000;

/** What one role's runner or chat model is configured with, after the role section and the top level are merged. */
export interface ClaudeCodeRoleSettings {
  modelId: string;
  /** The configured origin; absent: the environment's ANTHROPIC_BASE_URL, else Anthropic's. */
  baseUrl: string | undefined;
  effort: ClaudeCodeEffort | undefined;
  maxThinkingTokens: number | undefined;
  /** A chat call's time limit (an agent run's comes with its request). */
  timeoutMs: number;
}

/** The settings of `role`: its section over the top level; the requested model over both. */
export function resolveRoleSettings(config: ClaudeCodeBackendConfig, role: ModelRole, modelId?: string): ClaudeCodeRoleSettings {
  const section = config[role];
  return {
    modelId: modelId ?? section?.model ?? DEFAULT_CLAUDE_CODE_MODEL,
    baseUrl: (section?.base_url ?? config.base_url)?.replace(/\/+$/, ''),
    effort: section?.effort ?? config.effort,
    maxThinkingTokens: section?.max_thinking_tokens ?? config.max_thinking_tokens,
    timeoutMs: section?.timeout_ms ?? config.timeout_ms ?? DEFAULT_CHAT_TIMEOUT_MS,
  };
}
