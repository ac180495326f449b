import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { OfficeQaConfig } from './config.js';
import { CUSTOM_HTTP_SEARCH_PROVIDER_ID, createCustomHttpSearchProvider } from './custom-http-search-provider.js';
import type { SearchProvider } from './search-provider.js';

/** What `createEnvironment` takes besides the config. */
export interface OfficeQaEnvironmentOptions {
  /** Answers the `search` tool in online mode instead of the built-in `custom-http` provider; `search_api_url` is then not needed. */
  searchProvider?: SearchProvider;
  /** The built-in provider's wait before its second try, doubled before each later one (default 1000 ms). */
  searchRetryBaseDelayMs?: number;
}

/** The search of one rollout: its provider and the secrets to keep out of what the model sees. */
export interface RolloutSearch {
  provider: SearchProvider;
  knownSecrets: string[];
}

type SearchSettings = Pick<OfficeQaConfig, 'search_mode' | 'search_api_url' | 'search_auth_env' | 'search_provider' | 'search_timeout_seconds'>;

function configError(message: string, key: string): SkillOptError {
  return new SkillOptError({
    code: ERROR_CODES.configInvalid,
    category: 'user',
    message: `invalid officeqa config: env.${key}: ${message}`,
    details: { key: `env.${key}` },
  });
}

/** The token, read from the variable `search_auth_env` names; undefined when it names none. Its value is never put in a message. */
function readToken(settings: SearchSettings, variables: NodeJS.ProcessEnv): string | undefined {
  const name = settings.search_auth_env;
  if (name === '') return undefined;
  const value = variables[name];
  if (value === undefined || value.trim() === '')
    throw configError(
      `the environment variable ${name} is not set; export the search endpoint's token as ${name}, or set search_auth_env: '' if the endpoint needs none`,
      'search_auth_env',
    );
  return value.trim();
}

/**
 * Checks, when the environment is created, that online search can run: an endpoint to send to
 * (unless a provider was passed) and its token variable set. Offline, nothing is checked or read,
 * and a `search_api_url` in the config is never contacted.
 */
export function checkSearchSetup(settings: SearchSettings, options: OfficeQaEnvironmentOptions, variables: NodeJS.ProcessEnv = process.env): void {
  if (settings.search_mode !== 'online' || options.searchProvider !== undefined) return;
  if (settings.search_api_url === '')
    throw configError(
      'required when search_mode is online: the URL of your search endpoint (nothing has a default, so no query goes to a host you did not choose); or set search_mode: offline',
      'search_api_url',
    );
  readToken(settings, variables);
}

/** The search of a rollout in online mode (the token read now, at rollout time), or undefined offline. */
export function searchForRollout(
  settings: SearchSettings,
  options: OfficeQaEnvironmentOptions,
  variables: NodeJS.ProcessEnv = process.env,
): RolloutSearch | undefined {
  if (settings.search_mode !== 'online') return undefined;
  if (options.searchProvider !== undefined) return { provider: options.searchProvider, knownSecrets: [] };
  checkSearchSetup(settings, options, variables);
  const token = readToken(settings, variables);
  const provider = createCustomHttpSearchProvider({
    url: settings.search_api_url,
    token,
    tokenVariable: settings.search_auth_env === '' ? undefined : settings.search_auth_env,
    engine: settings.search_provider === CUSTOM_HTTP_SEARCH_PROVIDER_ID ? undefined : settings.search_provider,
    timeoutMs: settings.search_timeout_seconds * 1000,
    ...(options.searchRetryBaseDelayMs === undefined ? {} : { retryBaseDelayMs: options.searchRetryBaseDelayMs }),
  });
  return { provider, knownSecrets: token === undefined ? [] : [token] };
}
