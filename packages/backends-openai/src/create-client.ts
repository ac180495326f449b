import OpenAI, { AzureOpenAI } from 'openai';
import { createAzureTokenProvider, type AzureIdentityLoader } from './azure-identity.js';
import type { ModelCredentials, ResolvedModelSettings } from './resolve-model-settings.js';

export interface ClientRuntime {
  /** Replaces the global fetch (tests). */
  fetch?: typeof fetch;
  /** Loads @azure/identity (tests). */
  loadAzureIdentity?: AzureIdentityLoader;
}

// A value the SDK accepts as a key when there is none; the Authorization header is then removed.
const NO_KEY = 'no-key';

/**
 * The OpenAI SDK client of one role. The SDK's own retries are off (`maxRetries: 0`): retries,
 * timeouts and rate limits are backends-kit's, one policy for every backend. Everything the SDK
 * would otherwise read from the environment (OPENAI_BASE_URL, OPENAI_ORG_ID, OPENAI_API_VERSION,
 * …) is passed explicitly, so the precedence documented for this package is the one that applies.
 */
export async function createClient(settings: ResolvedModelSettings, credentials: ModelCredentials, runtime: ClientRuntime = {}): Promise<OpenAI> {
  const common = {
    maxRetries: 0,
    // Our own timeout (withTimeout) fires first; the SDK's is only a backstop.
    timeout: settings.timeoutMs + 5_000,
    defaultHeaders: { 'User-Agent': 'SkillOpt' },
    // The base URL's own query (a gateway's `?api-key=`), which the SDK would otherwise garble.
    ...(credentials.query ? { defaultQuery: credentials.query } : {}),
    ...(runtime.fetch ? { fetch: runtime.fetch } : {}),
  };
  if (settings.azure) {
    const { azure } = settings;
    const auth =
      azure.authMode === 'api_key'
        ? { apiKey: credentials.apiKey as string }
        : {
            azureADTokenProvider: await createAzureTokenProvider(azure, settings.provider, runtime.loadAzureIdentity),
            // Empty, not undefined: undefined would make the SDK read AZURE_OPENAI_API_KEY and refuse both at once.
            apiKey: '',
          };
    return new AzureOpenAI({
      ...common,
      ...auth,
      baseURL: settings.baseUrl,
      apiVersion: azure.apiVersion,
      deployment: azure.deployment,
      organization: null,
      project: null,
    });
  }
  const isOpenAi = settings.preset === 'openai';
  return new OpenAI({
    ...common,
    apiKey: credentials.apiKey ?? NO_KEY,
    adminAPIKey: null,
    baseURL: settings.baseUrl,
    // Organization and project headers are OpenAI's; other servers get none.
    ...(isOpenAi ? {} : { organization: null, project: null }),
    webhookSecret: null,
    // A local server without a key gets no Authorization header at all.
    ...(credentials.apiKey ? {} : { defaultHeaders: { ...common.defaultHeaders, Authorization: null } }),
  });
}
