import Anthropic from '@anthropic-ai/sdk';
import type { Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  readBaseUrl,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createAnthropicChatModel, type RetryTiming } from './chat-model.js';
import { anthropicBackendConfigSchema, type AnthropicBackendConfig, type AnthropicBackendConfigInput } from './config-schema.js';
import { priceTable } from './price-table.js';
import { ANTHROPIC_API_KEY_STEM, ANTHROPIC_API_KEY_VARIABLE, ANTHROPIC_PROVIDER } from './provider.js';
import { hasRateLimits, resolveRoleSettings } from './role-settings.js';

/**
 * Calls in flight per base URL and key when the config sets no `max_concurrency`: within a new
 * account's limits, raised by the user who has more (docs/backends/anthropic.md, `max_concurrency`).
 */
const DEFAULT_MAX_CONCURRENCY = 4;

export const manifest: PackageManifest<'backend', AnthropicBackendConfig> = {
  kind: 'backend',
  id: 'anthropic',
  specificationVersion: 'v1',
  configSchema: anthropicBackendConfigSchema,
  description:
    'The Anthropic Messages API (Claude), with prompt caching of the skill and optional extended thinking. Key: ANTHROPIC_API_KEY (or TARGET_ANTHROPIC_API_KEY, …).',
  credentials: {
    variables: [{ name: ANTHROPIC_API_KEY_VARIABLE, usedBy: 'Anthropic' }],
    // The variables createChatModel reads, first (the role's own) of them for a role's sub-section.
    variableFor: (_section, role) =>
      role === undefined ? ANTHROPIC_API_KEY_VARIABLE : (settingVariables({ stem: ANTHROPIC_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface AnthropicBackendRuntime {
  /** Where the API key is read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** The fetch the SDK uses. Default: the global fetch. */
  fetch?: typeof fetch;
  /** How retries wait (tests record the waits instead of sleeping). */
  retryTiming?: RetryTiming;
  /** Where the shared rate limiters live. Default: this process's, shared with every other backend. */
  rateLimiters?: RateLimiterRegistry;
}

export interface AnthropicBackend extends Backend {
  readonly id: 'anthropic';
  createChatModel(request: ModelRequest): ChatModel;
}

/**
 * The Anthropic backend. Its models read their API key when they are created (a missing key
 * fails there, before any work): `<ROLE>_ANTHROPIC_API_KEY`, then `ANTHROPIC_API_KEY`. Every
 * model that reaches the same base URL with the same key shares one rate limiter, since the
 * account's limits count them together.
 */
export function createBackend(config: AnthropicBackendConfigInput | AnthropicBackendConfig = {}, runtime: AnthropicBackendRuntime = {}): AnthropicBackend {
  const settings = parseBackendConfig(anthropicBackendConfigSchema, config, 'anthropic');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;

  return {
    specificationVersion: 'v1',
    id: 'anthropic',
    createChatModel(request: ModelRequest): ChatModel {
      const roleSettings = resolveRoleSettings(settings, request.role, request.modelId);
      const apiKey = readApiKey(environment, {
        backendId: 'anthropic',
        role: request.role,
        variables: settingVariables({ stem: ANTHROPIC_API_KEY_STEM, setting: 'API_KEY', role: request.role }),
        hint: 'any non-empty value works against `skillopt sim serve`',
      }).value;
      const { url: baseUrl, query } = readBaseUrl(
        'anthropic',
        settings[request.role]?.base_url === undefined ? 'base_url' : `${request.role}.base_url`,
        roleSettings.baseUrl,
      );
      // Query values long enough to be a key are cut out of messages like the key (`eu` or `true` would cut words out).
      const queryValues = Object.values(query).filter((value) => value.length >= 8);
      const client = new Anthropic({
        apiKey,
        baseURL: baseUrl,
        // The base URL's own query (a gateway's `?api-key=`), which the SDK would otherwise garble.
        ...(Object.keys(query).length > 0 ? { defaultQuery: query } : {}),
        // Retries belong to withRetry alone, or a failure would be retried twice over.
        maxRetries: 0,
        timeout: roleSettings.timeoutMs,
        ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
      });
      return createAnthropicChatModel({
        settings: { ...roleSettings, baseUrl },
        client,
        knownSecrets: [apiKey, ...queryValues],
        limiter: rateLimiters.limiterFor(
          // A key in the base URL's query is a credential like the API key: another key, another budget.
          { provider: ANTHROPIC_PROVIDER, endpoint: baseUrl, credential: [apiKey, ...queryValues].join('\n'), backendId: 'anthropic' },
          hasRateLimits(roleSettings.limits) ? roleSettings.limits : undefined,
          { limits: { maxConcurrency: DEFAULT_MAX_CONCURRENCY } },
        ),
        defaultConcurrency: roleSettings.limits.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
        retryTiming: runtime.retryTiming,
      });
    },
  };
}

/** The package entry as one value (what core loads by name). */
export const anthropicBackendPackage: BackendPackage<AnthropicBackendConfig> = { manifest, createBackend, priceTable };
