import type { AgentRunner, Backend, BackendPackage, ChatModel, ModelRequest, PackageManifest } from '@skillopt/contract';
import {
  parseBackendConfig,
  processRateLimiters,
  readApiKey,
  settingVariables,
  type EnvironmentSource,
  type RateLimiterRegistry,
} from '@skillopt/backends-kit';
import { createPiAgentRunner } from './agent-runner.js';
import { createPiChatModel } from './chat-model.js';
import { piBackendConfigSchema, type PiBackendConfig, type PiBackendConfigInput } from './config-schema.js';
import { originalConfigFormat } from './original-config-format.js';
import { priceTable } from './price-table.js';
import { ANTHROPIC_API_KEY_VARIABLE, OPENAI_API_KEY_VARIABLE, PI_API_KEY_STEM, PI_API_KEY_VARIABLE, PI_PROVIDER } from './provider.js';
import { resolveRoleSettings } from './role-settings.js';

/** Pi processes at once per endpoint and key when the config sets no `max_concurrency`: each one is a Node process. */
export const DEFAULT_PI_CONCURRENCY = 2;

export const manifest: PackageManifest<'backend', PiBackendConfig> = {
  kind: 'backend',
  id: 'pi',
  specificationVersion: 'v1',
  configSchema: piBackendConfigSchema,
  description:
    'The Pi coding agent CLI (pi -p --mode json): an agent target in a fresh workspace per rollout, and a chat model for the optimizer and the judge, over Chat Completions, Responses or Anthropic Messages. Key: PI_API_KEY, else OPENAI_API_KEY (ANTHROPIC_API_KEY for anthropic-messages).',
  originalConfig: originalConfigFormat,
  credentials: {
    variables: [
      { name: PI_API_KEY_VARIABLE, usedBy: 'Pi' },
      { name: OPENAI_API_KEY_VARIABLE, usedBy: 'Pi (OpenAI APIs)' },
      { name: ANTHROPIC_API_KEY_VARIABLE, usedBy: 'Pi (anthropic-messages)' },
    ],
    variableFor: (_section, role) =>
      role === undefined ? PI_API_KEY_VARIABLE : (settingVariables({ stem: PI_API_KEY_STEM, setting: 'API_KEY', role })[0] as string),
  },
};

/** What an embedding application or a test may hand the backend besides its config section. */
export interface PiBackendRuntime {
  /** Where the API key is read from. Default: process.env. */
  environment?: EnvironmentSource;
  /** Where the shared rate limiters live. Default: this process's. */
  rateLimiters?: RateLimiterRegistry;
  /** How a chat call's retries wait. */
  sleep?: (milliseconds: number, signal?: AbortSignal) => Promise<void>;
}

export interface PiBackend extends Backend {
  readonly id: 'pi';
  createChatModel(request: ModelRequest): ChatModel;
  createAgentRunner(request: ModelRequest): AgentRunner;
}

/**
 * The pi backend. Its runners and models read their API key when they are created (a missing key
 * fails there, before any work): `<ROLE>_PI_API_KEY`, `PI_API_KEY`, then the key of the API the
 * role speaks (`OPENAI_API_KEY`, or `ANTHROPIC_API_KEY` for anthropic-messages). Every runner and
 * model that reaches the same endpoint with the same key shares one limiter, so at most
 * `max_concurrency` Pi processes run for them at once.
 */
export function createBackend(config: PiBackendConfigInput | PiBackendConfig = {}, runtime: PiBackendRuntime = {}): PiBackend {
  const settings = parseBackendConfig(piBackendConfigSchema, config, 'pi');
  const environment = runtime.environment ?? process.env;
  const rateLimiters = runtime.rateLimiters ?? processRateLimiters;
  const concurrency = settings.max_concurrency ?? DEFAULT_PI_CONCURRENCY;

  const prepare = (request: ModelRequest) => {
    const roleSettings = resolveRoleSettings(settings, request.role, request.modelId);
    const apiKey = readApiKey(environment, {
      backendId: 'pi',
      role: request.role,
      variables: settingVariables({
        stem: PI_API_KEY_STEM,
        setting: 'API_KEY',
        role: request.role,
        conventionalNames: [roleSettings.api === 'anthropic-messages' ? ANTHROPIC_API_KEY_VARIABLE : OPENAI_API_KEY_VARIABLE],
      }),
      hint: 'any non-empty value works against `skillopt sim serve`',
    }).value;
    const rateLimiter = rateLimiters.limiterFor(
      { provider: PI_PROVIDER, endpoint: roleSettings.baseUrl, credential: apiKey, backendId: 'pi' },
      settings.max_concurrency === undefined ? undefined : { maxConcurrency: settings.max_concurrency },
      { limits: { maxConcurrency: DEFAULT_PI_CONCURRENCY } },
    );
    return { roleSettings, apiKey, rateLimiter };
  };

  return {
    specificationVersion: 'v1',
    id: 'pi',
    createAgentRunner(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createPiAgentRunner({ settings: roleSettings, apiKey, rateLimiter, defaultConcurrency: concurrency });
    },
    createChatModel(request) {
      const { roleSettings, apiKey, rateLimiter } = prepare(request);
      return createPiChatModel({
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
export const piBackendPackage: BackendPackage<PiBackendConfig> = { manifest, createBackend, priceTable };
