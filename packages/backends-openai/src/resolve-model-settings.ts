import type { ModelRequest } from '@skillopt/contract';
import { backendConfigError, readApiKey, readBaseUrl, readEnvironmentSetting, type EnvironmentSource } from '@skillopt/backends-kit';
import {
  AUTH_MODES,
  THINKING_MODES,
  type AuthMode,
  type OpenAiBackendConfig,
  type OpenAiModelSettings,
  type OpenAiRole,
  type ThinkingMode,
} from './config-schema.js';
import { apiKeyVariables, apiKeyVariableToSet, azureVariables, baseUrlVariables, minimaxRegionVariables } from './environment-variables.js';
import { DEFAULT_AZURE_AD_SCOPE, DEFAULT_AZURE_API_VERSION, MINIMAX_REGIONS, PRESETS, type Preset, type PresetId } from './presets.js';
import { impliedPreset } from './implied-preset.js';
import { isOpenAiReasoningModel } from './reasoning-models.js';
import { describeUrl, hostOf, trimTrailingSlashes } from './safe-url.js';

/** How the thinking switch reaches the server, once preset and base URL are known. */
type ThinkingWire = 'chat-template-kwargs' | 'enable-thinking-field' | 'minimax-thinking' | 'none';

export interface AzureConnection {
  endpoint: string;
  apiVersion: string;
  /** The deployment named in the request URL. */
  deployment: string;
  /** `auto` resolved: `api_key` when a key was found, `entra` otherwise. */
  authMode: Exclude<AuthMode, 'auto'>;
  adScope: string;
  managedIdentityClientId?: string;
}

/**
 * Everything one role's ChatModel needs, resolved from the run config's section, the role's
 * sub-section, the environment and the preset's defaults. It holds no secret: the key travels
 * separately in `ModelCredentials`, so these settings may be logged and put in metadata.
 */
export interface ResolvedModelSettings {
  role: OpenAiRole;
  preset: PresetId;
  /** The ChatModel's `provider` (the price table's key). */
  provider: string;
  /** The model as the run names it (ledger, price table). */
  modelId: string;
  /** What goes in the request's `model` field (Azure: the deployment). */
  wireModel: string;
  /** The base URL requests go to (Azure: `<endpoint>/openai`), without its query (see `ModelCredentials.query`). */
  baseUrl: string;
  azure?: AzureConnection;
  /** The variable the key came from (its name only), or undefined when no key is sent. */
  apiKeyVariable?: string;
  /** The variables that were looked at for a key, for messages. */
  apiKeyVariablesTried: string[];
  /** The one variable a message tells the user to set when no key was sent. */
  apiKeyVariableToSet: string;
  thinkingMode?: ThinkingMode;
  thinkingWire: ThinkingWire;
  /** undefined: none configured (a call's own may still be sent); null: never send one. */
  temperature?: number | null;
  maxTokens?: number;
  maxTokensParameter: 'max_tokens' | 'max_completion_tokens';
  reasoningModel: boolean;
  jsonResponseFormat: boolean;
  timeoutMs: number;
  maxAttempts: number;
  limits: { maxConcurrency?: number; requestsPerMinute?: number; tokensPerMinute?: number };
}

/** The secret half: kept apart from the settings so it never reaches a log, an error or metadata. */
export interface ModelCredentials {
  apiKey?: string;
  /** The query of the configured base URL (a gateway's `?api-key=…`), sent with every request. */
  query?: Record<string, string>;
}

/**
 * The values to cut out of any text this model reports: its key, and the values of its base URL's
 * query long enough to be a key (shorter ones, `eu` or `true`, would cut ordinary words out).
 */
export function knownSecretsOf(credentials: ModelCredentials): string[] {
  const queryValues = Object.values(credentials.query ?? {}).filter((value) => value.length >= 8);
  return [...(credentials.apiKey === undefined ? [] : [credentials.apiKey]), ...queryValues];
}

/** The id of this backend: its config section is `backends.openai`. */
const OPENAI_BACKEND_ID = 'openai';

export const DEFAULT_TIMEOUT_SECONDS = 300;
export const DEFAULT_MAX_ATTEMPTS = 5;

/** Resolves one role's settings; throws a `config-invalid` SkillOptError naming what to set. */
export function resolveModelSettings(
  config: OpenAiBackendConfig,
  request: ModelRequest,
  environment: EnvironmentSource,
): { settings: ResolvedModelSettings; credentials: ModelCredentials } {
  const role = request.role;
  const own: OpenAiModelSettings = config[role] ?? {};
  const pick = <Key extends keyof OpenAiModelSettings>(key: Key): OpenAiModelSettings[Key] => (own[key] !== undefined ? own[key] : config[key]);
  const presetId = impliedPreset(pick('preset'), pick('base_url'));
  const preset = PRESETS[presetId];

  const modelId = request.modelId?.trim() || pick('model') || preset.defaultModel;
  if (!modelId)
    throw backendConfigError(
      OPENAI_BACKEND_ID,
      `the ${presetId} preset has no default model: set model.${role} (or backends.openai.${role}.model) to the model your server serves`,
      {
        preset: presetId,
        role,
      },
    );

  const reasoningModel =
    pick('reasoning_model') ?? (preset.knowsOpenAiReasoningModels && (isOpenAiReasoningModel(modelId) || isOpenAiReasoningModel(pick('deployment') ?? '')));

  let configuredUrl: { url: string; source: string };
  let azure: AzureConnection | undefined;
  let credentials: ModelCredentials = {};
  let apiKeyVariable: string | undefined;
  const apiKeyVariablesTried = apiKeyVariables(presetId, role, pick('api_key_env'));

  if (presetId === 'azure') {
    const connection = resolveAzure(pick, role, modelId, environment);
    azure = connection.azure;
    configuredUrl = { url: `${trimTrailingSlashes(connection.azure.endpoint)}/openai`, source: 'the Azure endpoint' };
    if (connection.azure.authMode === 'api_key') {
      const found = readApiKey(environment, {
        backendId: OPENAI_BACKEND_ID,
        role,
        variables: apiKeyVariablesTried,
        hint: `Azure OpenAI with auth_mode ${pick('auth_mode') ?? 'api_key'}; or sign in with auth_mode: entra and \`npm install @azure/identity\``,
      });
      credentials = { apiKey: found.value };
      apiKeyVariable = found.name;
    }
  } else {
    configuredUrl = resolveBaseUrl(pick, presetId, role, environment);
    // A local server may take requests without a key; a hosted API, or a variable the config names, may not.
    const keyRequired = pick('api_key_env') !== undefined || preset.requiresApiKey;
    const found = keyRequired
      ? readApiKey(environment, {
          backendId: OPENAI_BACKEND_ID,
          role,
          variables: apiKeyVariablesTried,
          hint: pick('api_key_env') !== undefined ? 'the variable backends.openai.api_key_env names' : `the ${presetId} preset sends every request with a key`,
        })
      : readEnvironmentSetting(environment, apiKeyVariablesTried);
    if (found) {
      credentials = { apiKey: found.value };
      apiKeyVariable = found.name;
    }
  }

  const { url: baseUrl, query } = readBaseUrl(OPENAI_BACKEND_ID, configuredUrl.source, configuredUrl.url);
  if (Object.keys(query).length > 0) credentials = { ...credentials, query };

  const thinkingMode = resolveThinkingMode(pick('thinking_mode'), pick('enable_thinking'), preset, role);
  const maxTokensParameter =
    pick('max_tokens_parameter') ??
    (pick('use_max_completion_tokens') === undefined ? undefined : pick('use_max_completion_tokens') ? 'max_completion_tokens' : 'max_tokens') ??
    (reasoningModel ? 'max_completion_tokens' : preset.maxTokensParameter);
  const configuredTemperature = pick('temperature');

  const settings: ResolvedModelSettings = {
    role,
    preset: presetId,
    provider: preset.provider,
    modelId,
    wireModel: azure ? azure.deployment : modelId,
    baseUrl,
    ...(azure ? { azure } : {}),
    ...(apiKeyVariable ? { apiKeyVariable } : {}),
    apiKeyVariablesTried,
    apiKeyVariableToSet: apiKeyVariableToSet(presetId, pick('api_key_env')),
    ...(thinkingMode ? { thinkingMode } : {}),
    thinkingWire: thinkingWireOf(preset, baseUrl),
    ...(configuredTemperature !== undefined
      ? { temperature: configuredTemperature }
      : preset.defaultTemperature !== undefined
        ? { temperature: preset.defaultTemperature }
        : {}),
    ...(pick('max_tokens') !== undefined ? { maxTokens: pick('max_tokens') as number } : {}),
    maxTokensParameter,
    reasoningModel,
    jsonResponseFormat: pick('json_response_format') ?? true,
    timeoutMs: (pick('timeout_seconds') ?? DEFAULT_TIMEOUT_SECONDS) * 1000,
    maxAttempts: pick('max_attempts') ?? DEFAULT_MAX_ATTEMPTS,
    limits: {
      ...(pick('max_concurrency') !== undefined ? { maxConcurrency: pick('max_concurrency') as number } : {}),
      ...(pick('requests_per_minute') !== undefined ? { requestsPerMinute: pick('requests_per_minute') as number } : {}),
      ...(pick('tokens_per_minute') !== undefined ? { tokensPerMinute: pick('tokens_per_minute') as number } : {}),
    },
  };
  return { settings, credentials };
}

type Pick = <Key extends keyof OpenAiModelSettings>(key: Key) => OpenAiModelSettings[Key];

/**
 * Config first, then the environment, then the preset's default (MiniMax: its region's URL); with
 * where it came from, for messages.
 */
function resolveBaseUrl(pick: Pick, presetId: PresetId, role: OpenAiRole, environment: EnvironmentSource): { url: string; source: string } {
  const configured = pick('base_url');
  if (configured) return { url: configured, source: 'base_url' };
  const variables = baseUrlVariables(presetId, role);
  const fromEnvironment = readEnvironmentSetting(environment, variables);
  if (fromEnvironment) {
    if (!/^https?:\/\//i.test(fromEnvironment.value))
      throw backendConfigError(OPENAI_BACKEND_ID, `${fromEnvironment.name} must be an http(s) URL such as http://127.0.0.1:8000/v1`, { role });
    return { url: fromEnvironment.value, source: fromEnvironment.name };
  }
  if (presetId === 'minimax') {
    const regionVariable = readEnvironmentSetting(environment, minimaxRegionVariables(role));
    const region = pick('region') ?? regionVariable?.value.toLowerCase().replace(/-/g, '_') ?? 'global_en';
    const url = (MINIMAX_REGIONS as Record<string, string>)[region];
    if (!url)
      throw backendConfigError(
        OPENAI_BACKEND_ID,
        `${regionVariable?.name ?? 'region'} is ${region}; MiniMax regions are ${Object.keys(MINIMAX_REGIONS).join(', ')}`,
        { role },
      );
    return { url, source: `the ${region} MiniMax URL` };
  }
  const fallback = PRESETS[presetId].defaultBaseUrl;
  if (!fallback)
    throw backendConfigError(
      OPENAI_BACKEND_ID,
      `the ${presetId} preset needs a server: set backends.openai.base_url (or backends.openai.${role}.base_url, or ${variables.join(' or ')})`,
      {
        role,
      },
    );
  return { url: fallback, source: `the ${presetId} preset's URL` };
}

function resolveAzure(pick: Pick, role: OpenAiRole, modelId: string, environment: EnvironmentSource): { azure: AzureConnection } {
  const fromEnvironment = (setting: Parameters<typeof azureVariables>[0]) => readEnvironmentSetting(environment, azureVariables(setting, role));
  const endpoint = pick('endpoint') ?? fromEnvironment('ENDPOINT')?.value;
  if (!endpoint)
    throw backendConfigError(
      OPENAI_BACKEND_ID,
      `Azure OpenAI needs an endpoint: set backends.openai.endpoint (or ${azureVariables('ENDPOINT', role).join(' or ')})`,
      { role },
    );
  if (!/^https?:\/\//i.test(endpoint))
    throw backendConfigError(OPENAI_BACKEND_ID, `the Azure endpoint ${describeUrl(endpoint)} must be an https URL`, { role });

  let authMode: AuthMode | undefined = pick('auth_mode');
  if (authMode === undefined) {
    const variable = fromEnvironment('AUTH_MODE');
    if (variable) {
      const spelled = variable.value.toLowerCase().replace(/-/g, '_');
      const known = (AUTH_MODES as readonly string[]).includes(spelled)
        ? (spelled as AuthMode)
        : ({ key: 'api_key', aad: 'entra', azure_ad: 'entra', msi: 'managed_identity' } as Record<string, AuthMode>)[spelled];
      if (!known) throw backendConfigError(OPENAI_BACKEND_ID, `${variable.name} is ${variable.value}; auth modes are ${AUTH_MODES.join(', ')}`, { role });
      authMode = known;
    }
  }
  if (authMode === undefined || authMode === 'auto') {
    authMode = readEnvironmentSetting(environment, apiKeyVariables('azure', role, pick('api_key_env'))) ? 'api_key' : 'entra';
  }
  const clientId = pick('managed_identity_client_id') ?? fromEnvironment('MANAGED_IDENTITY_CLIENT_ID')?.value;
  return {
    azure: {
      endpoint,
      apiVersion: pick('api_version') ?? fromEnvironment('API_VERSION')?.value ?? DEFAULT_AZURE_API_VERSION,
      deployment: pick('deployment') ?? modelId,
      authMode,
      adScope: pick('ad_scope') ?? fromEnvironment('AD_SCOPE')?.value ?? DEFAULT_AZURE_AD_SCOPE,
      ...(clientId ? { managedIdentityClientId: clientId } : {}),
    },
  };
}

/**
 * The thinking policy: `thinking_mode` if given, else the original's `enable_thinking` (Qwen: true
 * = enabled, false = server_default; MiniMax: true = enabled, false = disabled), else the default
 * (server_default; MiniMax: disabled, as the original shipped). Both given and disagreeing is an
 * error, as in the original. Presets without a thinking switch get none.
 */
function resolveThinkingMode(mode: ThinkingMode | undefined, enable: boolean | undefined, preset: Preset, role: OpenAiRole): ThinkingMode | undefined {
  if (preset.thinking === 'none') return undefined;
  const legacy: ThinkingMode | undefined =
    enable === undefined ? undefined : enable ? 'enabled' : preset.thinking === 'minimax-thinking' ? 'disabled' : 'server_default';
  if (mode !== undefined && legacy !== undefined && mode !== legacy)
    throw backendConfigError(OPENAI_BACKEND_ID, `thinking_mode ${mode} contradicts enable_thinking ${String(enable)} for the ${role}; keep one of them`, {
      role,
    });
  const resolved = mode ?? legacy ?? (preset.thinking === 'minimax-thinking' ? 'disabled' : 'server_default');
  return (THINKING_MODES as readonly string[]).includes(resolved) ? resolved : 'server_default';
}

/**
 * Qwen served by vLLM, SGLang or llama.cpp takes the switch inside `chat_template_kwargs`;
 * Alibaba Cloud's DashScope (compatible mode) takes a top-level `enable_thinking` instead.
 */
function thinkingWireOf(preset: Preset, baseUrl: string): ThinkingWire {
  if (preset.thinking === 'minimax-thinking') return 'minimax-thinking';
  if (preset.thinking === 'none') return 'none';
  const host = hostOf(baseUrl);
  if (preset.id === 'qwen' && (host.endsWith('.aliyuncs.com') || host === 'aliyuncs.com')) return 'enable-thinking-field';
  return 'chat-template-kwargs';
}
