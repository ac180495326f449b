import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createCursorAgentRunner } from './agent-runner.js';
import { createCursorChatModel } from './chat-model.js';
import { cursorBackendConfigSchema, type CursorBackendConfig, type CursorBackendConfigInput } from './config-schema.js';
import { originalConfigFormat } from './original-config-format.js';
import { priceTable } from './price-table.js';
import { CURSOR_API_KEY_STEM, CURSOR_API_KEY_VARIABLE, CURSOR_PROVIDER } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

/** Cursor processes at once per key when the config sets no `max_concurrency`: each one is a heavy process. */
export const DEFAULT_CURSOR_CONCURRENCY = 2;

/** Cursor's own service, the one endpoint every run reaches: the limiter's scope is the key. */
const CURSOR_ENDPOINT = 'https://api2.cursor.sh';

export const manifest: PackageManifest<'backend', CursorBackendConfig> = {
  kind: 'backend',
  id: 'cursor',
  specificationVersion: 'v1',
  configSchema: cursorBackendConfigSchema,
  description:
    'The Cursor agent CLI (cursor-agent -p): an agent target in a fresh workspace per rollout, and a chat model for the optimizer and the judge. Key: CURSOR_API_KEY. Written from the protocol, not run against the real CLI.',
  originalConfig: originalConfigFormat,
  credentials: {
    variables: [{ name: CURSOR_API_KEY_VARIABLE, usedBy: 'Cursor' }],
    variableFor: (_section, role) =>
      role === undefined ? CURSOR_API_KEY_VARIABLE : (settingVariables({ stem: CURSOR_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface CursorBackendRuntime {
  /** Where the API key and the original's CURSOR_* path variables are read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared rate limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** How a chat call's retries wait. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface CursorBackend extends Backend {
  readonly id: 'cursor';
  createChatModel(request: ModelRequest): ChatModel;
  createAgentRunner(request: ModelRequest): AgentRunner;
}

/**
 * The cursor backend. Its runners and models read their API key when they are created (a missing
 * key fails there, before any work): `<ROLE>_CURSOR_API_KEY`, then `CURSOR_API_KEY`; the login of
 * the machine's own Cursor is never used, since every run has a config folder of its own. Every
 * runner and model with the same key shares one limiter, so at most `max_concurrency` Cursor
 * processes run for them at once.
 */
export function createBackend(config: CursorBackendConfigInput | CursorBackendConfig = {}, runtime: CursorBackendRuntime = {}): CursorBackend {
  const settings = parseBackendConfig(cursorBackendConfigSchema, config, 'cursor');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;
  const concurrency = settings.max_concurrency ?? DEFAULT_CURSOR_CONCURRENCY;

  const prepare = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, environment, request.modelId);
    const apiKey = readApiKey(environment, {
      backendId: 'cursor',
      role: request.role,
      variables: settingVariables({ stem: CURSOR_API_KEY_STEM, setting: 'API_KEY', role: request.role }),
      hint: 'a Cursor API key from the dashboard’s Integrations page',
    }).value;
    const rateLimiter = rateLimiters.limiterFor(
      { provider: CURSOR_PROVIDER, endpoint: CURSOR_ENDPOINT, credential: apiKey, backendId: 'cursor' },
      settings.max_concurrency === undefined ? undefined : { maxConcurrency: settings.max_concurrency },
      { limits: { maxConcurrency: DEFAULT_CURSOR_CONCURRENCY } },
    );
    return { roleSettings, apiKey, rateLimiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'cursor',
    createAgentRunner(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCursorAgentRunner({ settings: roleSettings, apiKey, rateLimiter, defaultConcurrency: concurrency });
    },
    createChatModel(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createCursorChatModel({
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
export const cursorBackendPackage: BackendPackage<CursorBackendConfig> = { manifest, createBackend, priceTable };
