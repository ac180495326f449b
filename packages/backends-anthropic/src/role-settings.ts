import type { ModelRole } from '@skillopt/contract';
import type { AnthropicBackendConfig } from './config-schema.js';
import { DEFAULT_ANTHROPIC_BASE_URL, DEFAULT_ANTHROPIC_MODEL } from './provider.js';

/** What one role's model runs with: the top level of `backends.anthropic`, overridden by its role section. */
export interface AnthropicRoleSettings {
  role: ModelRole;
  modelId: string;
  baseUrl: string;
  maxOutputTokens: number;
  /** Absent: extended thinking off. */
  thinkingBudgetTokens: number | undefined;
  promptCaching: boolean;
  timeoutMs: number;
  maxRetries: number;
  /** The account's limits at this base URL, shared with every other model that uses the same key there. */
  limits: RateLimits;
}

export interface RateLimits {
  maxConcurrency: number | undefined;
  requestsPerMinute: number | undefined;
  tokensPerMinute: number | undefined;
}

/**
 * The settings of `role`. The model is, in order: the id the caller asks for (the run config's
 * `model.target` / `model.optimizer`), the role section's `model`, then claude-sonnet-4-6.
 */
export function resolveRoleSettings(config: AnthropicBackendConfig, role: ModelRole, requestedModelId?: string): AnthropicRoleSettings {
  const section = config[role] ?? {};
  const limits: RateLimits = {
    maxConcurrency: section.max_concurrency ?? config.max_concurrency,
    requestsPerMinute: section.requests_per_minute ?? config.requests_per_minute,
    tokensPerMinute: section.tokens_per_minute ?? config.tokens_per_minute,
  };
  const requested = requestedModelId?.trim();
  return {
    role,
    modelId: requested !== undefined && requested !== '' ? requested : (section.model ?? DEFAULT_ANTHROPIC_MODEL),
    baseUrl: (section.base_url ?? config.base_url ?? DEFAULT_ANTHROPIC_BASE_URL).replace(/\/+$/, ''),
    maxOutputTokens: section.max_output_tokens ?? config.max_output_tokens,
    thinkingBudgetTokens: section.thinking_budget_tokens ?? config.thinking_budget_tokens,
    promptCaching: section.prompt_caching ?? config.prompt_caching,
    timeoutMs: section.timeout_ms ?? config.timeout_ms,
    maxRetries: section.max_retries ?? config.max_retries,
    limits,
  };
}

/** True when any limit is set, so calls go through a limiter at all. */
export function hasRateLimits(limits: RateLimits): boolean {
  return limits.maxConcurrency !== undefined || limits.requestsPerMinute !== undefined || limits.tokensPerMinute !== undefined;
}
