import {
  ERROR_CODES,
  SkillOptError,
  type Backend,
  type BackendPackage,
  type ModelRequest,
  type PackageManifest,
} from '@skillopt/contract';
import { createRateLimiter, type RateLimiter } from '@skillopt/backends-kit';
import type { AzureIdentityLoader } from './azure-identity.js';
import { createOpenAiChatModel, type ChatModelRuntime, type OpenAiChatModel } from './chat-model.js';
import { openAiBackendConfigSchema, type OpenAiBackendConfig, type OpenAiBackendConfigInput } from './config-schema.js';
import type { EnvironmentSource } from './environment-variables.js';
import { priceTable } from './price-table.js';
import { resolveModelSettings, type ResolvedModelSettings } from './resolve-model-settings.js';

export const manifest: PackageManifest<'backend', OpenAiBackendConfig> = {
  kind: 'backend',
  id: 'openai',
  specificationVersion: 'v1',
  configSchema: openAiBackendConfigSchema,
  description: 'OpenAI, Azure OpenAI and OpenAI-compatible servers (Qwen, MiniMax, DeepSeek, vLLM, Ollama, llama.cpp) through Chat Completions.',
};

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
 * Models that reach the same server and model with the same limits share one rate limiter, so
 * a target and an optimizer on one deployment stay inside its limits together.
 */
export function createBackend(config: OpenAiBackendConfigInput = {}, options: OpenAiBackendOptions = {}): OpenAiBackend {
  const parsed = openAiBackendConfigSchema.safeParse(config);
  if (!parsed.success)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `backends.openai: ${parsed.error.issues.map((issue) => `${issue.path.join('.') || '(section)'}: ${issue.message}`).join('; ')}`,
    });
  const section = parsed.data;
  const environment = options.environment ?? process.env;
  const limiters = new Map<string, RateLimiter>();

  function limiterFor(settings: ResolvedModelSettings): RateLimiter | undefined {
    const { maxConcurrency, requestsPerMinute, tokensPerMinute } = settings.limits;
    if (maxConcurrency === undefined && requestsPerMinute === undefined && tokensPerMinute === undefined) return undefined;
    const key = JSON.stringify([settings.baseUrl, settings.wireModel, maxConcurrency, requestsPerMinute, tokensPerMinute]);
    let limiter = limiters.get(key);
    if (!limiter) {
      limiter = createRateLimiter({
        // Budgets alone still need a concurrency bound; this one is high enough never to be the limit.
        maxConcurrency: maxConcurrency ?? 1_000,
        ...(requestsPerMinute !== undefined ? { requestsPerMinute } : {}),
        ...(tokensPerMinute !== undefined ? { tokensPerMinute } : {}),
        ...(options.sleep ? { sleep: options.sleep } : {}),
      });
      limiters.set(key, limiter);
    }
    return limiter;
  }

  return {
    specificationVersion: 'v1',
    id: 'openai',
    createChatModel(request: ModelRequest): OpenAiChatModel {
      const { settings, credentials } = resolveModelSettings(section, request, environment);
      const limiter = limiterFor(settings);
      return createOpenAiChatModel(settings, credentials, {
        ...(limiter ? { limiter } : {}),
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
