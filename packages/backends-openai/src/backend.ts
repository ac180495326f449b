import type { Backend, BackendPackage, ModelRequest, PackageManifest } from '@skillopt/contract';
import { openAiCredentials } from './credentials.js';
import { parseBackendConfig, processRateLimiters, type EnvironmentSource, type RateLimiterRegistry } from '@skillopt/backends-kit';
import type { AzureIdentityLoader } from './azure-identity.js';
import { createOpenAiChatModel, type ChatModelRuntime, type OpenAiChatModel } from './chat-model.js';
import { openAiBackendConfigSchema, type OpenAiBackendConfig, type OpenAiBackendConfigInput } from './config-schema.js';
import { originalConfigFormat } from './original-config-format.js';
import { priceTable } from './price-table.js';
import { knownSecretsOf, resolveModelSettings, type ModelCredentials, type ResolvedModelSettings } from './resolve-model-settings.js';

export const manifest: PackageManifest<'backend', OpenAiBackendConfig> = {
  kind: 'backend',
  id: 'openai',
  specificationVersion: 'v1',
  configSchema: openAiBackendConfigSchema,
  description: 'OpenAI, Azure OpenAI and OpenAI-compatible servers (Qwen, MiniMax, DeepSeek, vLLM, Ollama, llama.cpp) through Chat Completions.',
  originalConfig: originalConfigFormat,
  credentials: openAiCredentials,
};

/**
 * Calls in flight per endpoint and key when the config sets no `max_concurrency`: low enough for a
 * new account's limits, and raised by the user who has more (docs/backends/openai.md, `max_concurrency`).
 */
const DEFAULT_MAX_CONCURRENCY = 8;

/** Things a test (or an embedding program) may replace; a run config never sets them. */
export interface OpenAiBackendOptions {
  /** Where secrets and defaults are read from. Default `process.env`. */
  environment?: EnvironmentSource;
  /** Replaces the global fetch. */
  fetch?: typeof fetch;
  /** The waits between attempts. */
  sleep?: ChatModelRuntime['sleep'];
  /** The backoff jitter. */
  random?: ChatModelRuntime['random'];
  /** Told about each retry. */
  onRetry?: ChatModelRuntime['onRetry'];
  /** Loads the optional @azure/identity. */
  loadAzureIdentity?: AzureIdentityLoader;
  /** Where the shared rate limiters live. Default: this process's, shared with every other backend. */
  rateLimiters?: RateLimiterRegistry;
}

export interface OpenAiBackend extends Backend {
  readonly id: 'openai';
  createChatModel(request: ModelRequest): OpenAiChatModel;
}

/**
 * The openai backend: one ChatModel per role, each resolved from the section, its role
 * sub-section and the environment. Settings problems (a missing key, endpoint or model) are
 * reported here, when the model is created, not on its first call.
 *
 * Every model that reaches the same endpoint (Azure: the same deployment) with the same key
 * shares one rate limiter, across roles and backend instances, since the provider counts them
 * together.
 */
export function createBackend(config: OpenAiBackendConfigInput = {}, options: OpenAiBackendOptions = {}): OpenAiBackend {
  const section = parseBackendConfig(openAiBackendConfigSchema, config, 'openai');
  const environment = options.environment ?? process.env;
  const rateLimiters = options.rateLimiters ?? processRateLimiters;

  function limiterFor(settings: ResolvedModelSettings, credentials: ModelCredentials) {
    const { maxConcurrency, requestsPerMinute, tokensPerMinute } = settings.limits;
    const configured = maxConcurrency !== undefined || requestsPerMinute !== undefined || tokensPerMinute !== undefined;
    const endpoint = settings.azure ? `${settings.baseUrl}/deployments/${settings.azure.deployment}` : settings.baseUrl;
    // A key in the base URL's query is a credential like the API key: another key, another budget.
    const credential = knownSecretsOf(credentials).join('\n');
    return rateLimiters.limiterFor(
      { provider: settings.provider, endpoint, backendId: 'openai', ...(credential ? { credential } : {}) },
      configured ? settings.limits : undefined,
      { limits: { maxConcurrency: DEFAULT_MAX_CONCURRENCY } },
    );
  }

  return {
    specificationVersion: 'v1',
    id: 'openai',
    createChatModel(request: ModelRequest): OpenAiChatModel {
      const { settings, credentials } = resolveModelSettings(section, request, environment);
      return createOpenAiChatModel(settings, credentials, {
        limiter: limiterFor(settings, credentials),
        defaultConcurrency: settings.limits.maxConcurrency ?? DEFAULT_MAX_CONCURRENCY,
        ...(options.fetch ? { fetch: options.fetch } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
        ...(options.random ? { random: options.random } : {}),
        ...(options.onRetry ? { onRetry: options.onRetry } : {}),
        ...(options.loadAzureIdentity ? { loadAzureIdentity: options.loadAzureIdentity } : {}),
      });
    },
  };
}

/** The package entry as one value (what core loads by name). */
export const openAiBackendPackage: BackendPackage<OpenAiBackendConfig> = { manifest, createBackend, priceTable };
