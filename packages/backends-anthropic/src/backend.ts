import Anthropic from '@anthropic-ai/sdk';
import {
  ERROR_CODES,
  SkillOptError,
  type Backend,
  type BackendPackage,
  type ChatModel,
  type ModelRequest,
  type ModelRole,
  type PackageManifest,
} from '@skillopt/contract';
import { createRateLimiter, type RateLimiter } from '@skillopt/backends-kit';
import { readApiKey, type EnvironmentVariables } from './api-key.js';
import { createAnthropicChatModel, type RetryTiming } from './chat-model.js';
import { anthropicBackendConfigSchema, type AnthropicBackendConfig, type AnthropicBackendConfigInput } from './config-schema.js';
import { priceTable } from './price-table.js';
import { hasRateLimits, resolveRoleSettings, type RateLimits } from './role-settings.js';

export const manifest: PackageManifest<'backend', AnthropicBackendConfig> = {
  kind: 'backend',
  id: 'anthropic',
  specificationVersion: 'v1',
  configSchema: anthropicBackendConfigSchema,
  description: 'The Anthropic Messages API (Claude), with prompt caching of the skill and optional extended thinking. Key: ANTHROPIC_API_KEY.',
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface AnthropicBackendRuntime {
  /** Where ANTHROPIC_API_KEY is read from. Default: process.env. */
  environment?: EnvironmentVariables;
  /** The fetch the SDK uses. Default: the global fetch. */
  fetch?: typeof fetch;
  /** How retries wait (tests record the waits instead of sleeping). */
  retryTiming?: RetryTiming;
}

export interface AnthropicBackend extends Backend {
  readonly id: 'anthropic';
  createChatModel(request: ModelRequest): ChatModel;
}

function limiterFor(limits: RateLimits): RateLimiter {
  return createRateLimiter({
    // A per-minute budget without a concurrency cap: any number in flight.
    maxConcurrency: limits.maxConcurrency ?? Number.MAX_SAFE_INTEGER,
    ...(limits.requestsPerMinute === undefined ? {} : { requestsPerMinute: limits.requestsPerMinute }),
    ...(limits.tokensPerMinute === undefined ? {} : { tokensPerMinute: limits.tokensPerMinute }),
  });
}

function parseConfig(config: unknown): AnthropicBackendConfig {
  const parsed = anthropicBackendConfigSchema.safeParse(config ?? {});
  if (parsed.success) return parsed.data;
  throw new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `backends.anthropic: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(section)'}: ${issue.message}`).join('; ')}`,
  });
}

/**
 * The Anthropic backend. Its models read ANTHROPIC_API_KEY when they are created (a missing key
 * fails there, before any work). Rate limits: a role section that sets any limit gets a limiter
 * of its own; every other role shares the top level's, since it is one account's budget.
 */
export function createBackend(config: AnthropicBackendConfigInput | AnthropicBackendConfig = {}, runtime: AnthropicBackendRuntime = {}): AnthropicBackend {
  const settings = parseConfig(config);
  const environment = runtime.environment ?? process.env;
  let sharedLimiter: RateLimiter | undefined;
  const roleLimiters = new Map<ModelRole, RateLimiter>();

  function limiterOf(role: ModelRole, limits: RateLimits, ownLimits: boolean): RateLimiter | undefined {
    if (!hasRateLimits(limits)) return undefined;
    if (!ownLimits) return (sharedLimiter ??= limiterFor(limits));
    let limiter = roleLimiters.get(role);
    if (limiter === undefined) roleLimiters.set(role, (limiter = limiterFor(limits)));
    return limiter;
  }

  return {
    specificationVersion: 'v1',
    id: 'anthropic',
    createChatModel(request: ModelRequest): ChatModel {
      const roleSettings = resolveRoleSettings(settings, request.role, request.modelId);
      const client = new Anthropic({
        apiKey: readApiKey(environment),
        baseURL: roleSettings.baseUrl,
        // Retries belong to withRetry alone, or a failure would be retried twice over.
        maxRetries: 0,
        timeout: roleSettings.timeoutMs,
        ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
      });
      return createAnthropicChatModel({
        settings: roleSettings,
        client,
        limiter: limiterOf(request.role, roleSettings.limits, roleSettings.hasOwnLimits),
        retryTiming: runtime.retryTiming,
      });
    },
  };
}

/** The package entry as one value (what core loads by name). */
export const anthropicBackendPackage: BackendPackage<AnthropicBackendConfig> = { manifest, createBackend, priceTable };
