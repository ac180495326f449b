import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createOpencodeAgentRunner } from './agent-runner.js';
import { createOpencodeChatModel } from './chat-model.js';
import { opencodeBackendConfigSchema, type OpencodeBackendConfig, type OpencodeBackendConfigInput } from './config-schema.js';
import { priceTable } from './price-table.js';
import { OPENCODE_API_KEY_STEM, OPENCODE_API_KEY_VARIABLE, OPENCODE_PROVIDER, OPENAI_API_KEY_VARIABLE } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

/** OpenCode processes at once per endpoint and key when the config sets no `max_concurrency`: each one is a heavy process. */
export const DEFAULT_OPENCODE_CONCURRENCY = 2;

export const manifest: PackageManifest<'backend', OpencodeBackendConfig> = {
  kind: 'backend',
  id: 'opencode',
  specificationVersion: 'v1',
  configSchema: opencodeBackendConfigSchema,
  description:
    'The OpenCode CLI (opencode run): an agent target in a fresh workspace per rollout, and a chat model for the optimizer and the judge, over any Chat Completions API. Key: OPENCODE_API_KEY or OPENAI_API_KEY.',
  credentials: {
    variables: [
      { name: OPENCODE_API_KEY_VARIABLE, usedBy: 'OpenCode' },
      { name: OPENAI_API_KEY_VARIABLE, usedBy: 'OpenCode (OpenAI)' },
    ],
    variableFor: (_section, role) =>
      role === undefined ? OPENCODE_API_KEY_VARIABLE : (settingVariables({ stem: OPENCODE_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface OpencodeBackendRuntime {
  /** Where the API key and the original's SKILLOPT_SLEEP_OPENCODE_PATH are read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared rate limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** How a chat call's retries wait. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface OpencodeBackend extends Backend {
  readonly id: 'opencode';
  createChatModel(request: ModelRequest): ChatModel;
  createAgentRunner(request: ModelRequest): AgentRunner;
}

/**
 * The opencode backend. Its runners and models read their API key when they are created (a missing
 * key fails there, before any work): `<ROLE>_OPENCODE_API_KEY`, `OPENCODE_API_KEY`, then
 * `OPENAI_API_KEY`. Every runner and model that reaches the same endpoint with the same key
 * shares one limiter, so at most `max_concurrency` OpenCode processes run for them at once.
 */
export function createBackend(config: OpencodeBackendConfigInput | OpencodeBackendConfig = {}, runtime: OpencodeBackendRuntime = {}): OpencodeBackend {
  const settings = parseBackendConfig(opencodeBackendConfigSchema, config, 'opencode');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;
  const concurrency = settings.max_concurrency ?? DEFAULT_OPENCODE_CONCURRENCY;

  const prepare = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, environment, request.modelId);
    const apiKey = readApiKey(environment, {
      backendId: 'opencode',
      role: request.role,
      variables: settingVariables({ stem: OPENCODE_API_KEY_STEM, setting: 'API_KEY', role: request.role, conventionalNames: [OPENAI_API_KEY_VARIABLE] }),
      hint: 'any non-empty value works against `skillopt sim serve`',
    }).value;
    const rateLimiter = rateLimiters.limiterFor(
      { provider: OPENCODE_PROVIDER, endpoint: roleSettings.baseUrl, credential: apiKey, backendId: 'opencode' },
      settings.max_concurrency === undefined ? undefined : { maxConcurrency: settings.max_concurrency },
      { limits: { maxConcurrency: DEFAULT_OPENCODE_CONCURRENCY } },
    );
    return { roleSettings, apiKey, rateLimiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'opencode',
    createAgentRunner(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createOpencodeAgentRunner({ settings: roleSettings, apiKey, rateLimiter, defaultConcurrency: concurrency });
    },
    createChatModel(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createOpencodeChatModel({
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
export const opencodeBackendPackage: BackendPackage<OpencodeBackendConfig> = { manifest, createBackend, priceTable };
