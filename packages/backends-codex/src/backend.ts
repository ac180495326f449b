import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createCodexAgentRunner } from './agent-runner.js';
import { createCodexChatModel } from './chat-model.js';
import { codexBackendConfigSchema, type CodexBackendConfig, type CodexBackendConfigInput } from './config-schema.js';
import { originalConfigFormat } from './original-config-format.js';
import { priceTable } from './price-table.js';
import { CODEX_API_KEY_STEM, CODEX_API_KEY_VARIABLE, CODEX_PROVIDER, OPENAI_API_KEY_VARIABLE } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

/** Codex processes at once per endpoint and key when the config sets no `max_concurrency`: each one is a heavy process. */
export const DEFAULT_CODEX_CONCURRENCY = 2;

export const manifest: PackageManifest<'backend', CodexBackendConfig> = {
  kind: 'backend',
  id: 'codex',
  specificationVersion: 'v1',
  configSchema: codexBackendConfigSchema,
  description:
    'The OpenAI Codex CLI (codex exec): an agent target in a fresh workspace per rollout, and a chat model for the optimizer and the judge. Key: CODEX_API_KEY or OPENAI_API_KEY.',
  originalConfig: originalConfigFormat,
  credentials: {
    variables: [
      { name: CODEX_API_KEY_VARIABLE, usedBy: 'Codex' },
      { name: OPENAI_API_KEY_VARIABLE, usedBy: 'Codex (OpenAI)' },
    ],
    variableFor: (_section, role) =>
      role === undefined ? CODEX_API_KEY_VARIABLE : (settingVariables({ stem: CODEX_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface CodexBackendRuntime {
  /** Where the API key and the original's CODEX_* path variables are read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared rate limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** How a chat call's retries wait. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface CodexBackend extends Backend {
  readonly id: 'codex';
  createChatModel(request: ModelRequest): ChatModel;
  createAgentRunner(request: ModelRequest): AgentRunner;
}

/**
 * The codex backend. Its runners and models read their API key when they are created (a missing
 * key fails there, before any work): `<ROLE>_CODEX_API_KEY`, `CODEX_API_KEY`, then
 * `OPENAI_API_KEY`. Every runner and model that reaches the same endpoint with the same key
 * shares one limiter, so at most `max_concurrency` Codex processes run for them at once.
 */
export function createBackend(config: CodexBackendConfigInput | CodexBackendConfig = {}, runtime: CodexBackendRuntime = {}): CodexBackend {
  const settings = parseBackendConfig(codexBackendConfigSchema, config, 'codex');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;
  const concurrency = settings.max_concurrency ?? DEFAULT_CODEX_CONCURRENCY;

  const prepare = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, environment, request.modelId);
    const apiKey = readApiKey(environment, {
      backendId: 'codex',
      role: request.role,
      variables: settingVariables({ stem: CODEX_API_KEY_STEM, setting: 'API_KEY', role: request.role, conventionalNames: [OPENAI_API_KEY_VARIABLE] }),
      hint: 'any non-empty value works against `skillopt sim serve`',
    }).value;
    const rateLimiter = rateLimiters.limiterFor(
      { provider: CODEX_PROVIDER, endpoint: roleSettings.baseUrl, credential: apiKey, backendId: 'codex' },
      settings.max_concurrency === undefined ? undefined : { maxConcurrency: settings.max_concurrency },
      { limits: { maxConcurrency: DEFAULT_CODEX_CONCURRENCY } },
    );
    return { roleSettings, apiKey, rateLimiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'codex',
    createAgentRunner(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCodexAgentRunner({ settings: roleSettings, apiKey, rateLimiter, defaultConcurrency: concurrency });
    },
    createChatModel(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCodexChatModel({
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
export const codexBackendPackage: BackendPackage<CodexBackendConfig> = { manifest, createBackend, priceTable };
