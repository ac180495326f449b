import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createCopilotAgentRunner } from './agent-runner.js';
import { createCopilotChatModel } from './chat-model.js';
import { copilotBackendConfigSchema, type CopilotBackendConfig, type CopilotBackendConfigInput } from './config-schema.js';
import { originalConfigFormat } from './original-config-format.js';
import { priceTable } from './price-table.js';
import { COPILOT_API_KEY_STEM, COPILOT_API_KEY_VARIABLE, COPILOT_PROVIDER } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

/** Copilot processes at once per endpoint and key when the config sets no `max_concurrency`: each one is a heavy process. */
export const DEFAULT_COPILOT_CONCURRENCY = 2;

export const manifest: PackageManifest<'backend', CopilotBackendConfig> = {
  kind: 'backend',
  id: 'copilot',
  specificationVersion: 'v1',
  configSchema: copilotBackendConfigSchema,
  description:
    "The GitHub Copilot CLI in BYOK offline mode (your model provider, no GitHub login): an agent target in a fresh workspace per rollout, and a chat model for the optimizer and the judge. Key: COPILOT_PROVIDER_API_KEY (the provider's).",
  originalConfig: originalConfigFormat,
  credentials: {
    variables: [{ name: COPILOT_API_KEY_VARIABLE, usedBy: "Copilot (the BYOK provider's key)" }],
    variableFor: (_section, role) =>
      role === undefined ? COPILOT_API_KEY_VARIABLE : (settingVariables({ stem: COPILOT_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface CopilotBackendRuntime {
  /** Where the API key and the original's COPILOT_EXEC_PATH are read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared rate limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** How a chat call's retries wait. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface CopilotBackend extends Backend {
  readonly id: 'copilot';
  createChatModel(request: ModelRequest): ChatModel;
  createAgentRunner(request: ModelRequest): AgentRunner;
}

/**
 * The copilot backend. Its runners and models read the provider's API key when they are created
 * (a missing key fails there, before any work): `<ROLE>_COPILOT_PROVIDER_API_KEY`, then
 * `COPILOT_PROVIDER_API_KEY`. Every runner and model that reaches the same endpoint with the same
 * key shares one limiter, so at most `max_concurrency` Copilot processes run for them at once.
 */
export function createBackend(config: CopilotBackendConfigInput | CopilotBackendConfig = {}, runtime: CopilotBackendRuntime = {}): CopilotBackend {
  const settings = parseBackendConfig(copilotBackendConfigSchema, config, 'copilot');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;
  const concurrency = settings.max_concurrency ?? DEFAULT_COPILOT_CONCURRENCY;

  const prepare = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, environment, request.modelId);
    const apiKey = readApiKey(environment, {
      backendId: 'copilot',
      role: request.role,
      variables: settingVariables({ stem: COPILOT_API_KEY_STEM, setting: 'API_KEY', role: request.role }),
      hint: 'any non-empty value works against `skillopt sim serve`',
    }).value;
    const rateLimiter = rateLimiters.limiterFor(
      { provider: COPILOT_PROVIDER, endpoint: roleSettings.baseUrl, credential: apiKey, backendId: 'copilot' },
      settings.max_concurrency === undefined ? undefined : { maxConcurrency: settings.max_concurrency },
      { limits: { maxConcurrency: DEFAULT_COPILOT_CONCURRENCY } },
    );
    return { roleSettings, apiKey, rateLimiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'copilot',
    createAgentRunner(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCopilotAgentRunner({ settings: roleSettings, apiKey, rateLimiter, defaultConcurrency: concurrency });
    },
    createChatModel(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCopilotChatModel({
        settings: roleSettings,
        apiKey,
        rateLimiter,
        defaultConcurrency: concurrency,
        ...(runtime.sleep ? { sleep: runtime.sleep } : {}),
      });
    },
  };
}

/** The package entry as one value (what core loads by name). */
export const copilotBackendPackage: BackendPackage<CopilotBackendConfig> = { manifest, createBackend, priceTable };
