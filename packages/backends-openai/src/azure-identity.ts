import { ERROR_CODES, ProviderError, SkillOptError } from '@skillopt/contract';
import type { AzureConnection } from './resolve-model-settings.js';

/**
 * Microsoft Entra ID sign-in for Azure OpenAI through `@azure/identity`, an OPTIONAL peer
 * dependency: it is loaded only when an auth mode needs it, by an `import()` of a computed name,
 * so bundlers and type checkers do not require it and installs without Azure stay small.
 */

/** The part of `@azure/identity` used here. */
interface AzureIdentityModule {
  DefaultAzureCredential: new (options?: { managedIdentityClientId?: string }) => unknown;
  ManagedIdentityCredential: new (options?: { clientId?: string }) => unknown;
  AzureCliCredential: new () => unknown;
  getBearerTokenProvider: (credential: unknown, scope: string) => () => Promise<string>;
}

/** Loads `@azure/identity`; replaceable in tests. */
export type AzureIdentityLoader = () => Promise<unknown>;

// Computed, so that no tool treats the optional peer as a dependency of this package.
const AZURE_IDENTITY_PACKAGE = ['@azure', 'identity'].join('/');

const loadAzureIdentityPackage: AzureIdentityLoader = () => import(AZURE_IDENTITY_PACKAGE);

function isModuleNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return (
    code === 'ERR_MODULE_NOT_FOUND' ||
    code === 'MODULE_NOT_FOUND' ||
    /Cannot find (module|package) ['"]?@azure\/identity/.test(String((error as { message?: unknown } | null)?.message ?? ''))
  );
}

/**
 * A function that returns a fresh Entra ID access token for Azure OpenAI (the SDK calls it before
 * every request; `@azure/identity` caches and refreshes tokens). Throws a non-retryable
 * `package-not-found` error naming `npm install @azure/identity` when the peer is missing.
 */
export async function createAzureTokenProvider(
  connection: AzureConnection,
  provider: string,
  load: AzureIdentityLoader = loadAzureIdentityPackage,
): Promise<() => Promise<string>> {
  let loaded: unknown;
  try {
    loaded = await load();
  } catch (error) {
    if (!isModuleNotFound(error)) throw error;
    throw new SkillOptError({
      code: ERROR_CODES.packageNotFound,
      category: 'user',
      retryable: false,
      message: `backends.openai: Azure OpenAI with auth_mode ${connection.authMode} signs in with Microsoft Entra ID through the optional package @azure/identity, which is not installed: run \`npm install @azure/identity\` (or set AZURE_OPENAI_API_KEY and auth_mode: api_key)`,
      cause: error,
    });
  }
  const identity = ((loaded as { default?: unknown }).default ?? loaded) as Partial<AzureIdentityModule>;
  const module = (typeof identity.getBearerTokenProvider === 'function' ? identity : loaded) as AzureIdentityModule;
  if (typeof module.getBearerTokenProvider !== 'function')
    throw new SkillOptError({
      code: ERROR_CODES.packageNotFound,
      category: 'user',
      message: 'backends.openai: the installed @azure/identity has no getBearerTokenProvider; install version 4 or later (`npm install @azure/identity@4`)',
    });

  const clientId = connection.managedIdentityClientId;
  let credential: unknown;
  switch (connection.authMode) {
    case 'managed_identity':
      credential = new module.ManagedIdentityCredential(clientId ? { clientId } : undefined);
      break;
    case 'azure_cli':
      credential = new module.AzureCliCredential();
      break;
    default:
      // entra: environment credentials, workload identity, managed identity, Azure CLI, … in turn.
      credential = new module.DefaultAzureCredential(clientId ? { managedIdentityClientId: clientId } : undefined);
  }
  const getToken = module.getBearerTokenProvider(credential, connection.adScope);
  return async () => {
    try {
      return await getToken();
    } catch (error) {
      throw new ProviderError({
        code: ERROR_CODES.providerAuthentication,
        provider,
        retryable: false,
        message: `${provider}: could not get a Microsoft Entra ID token (auth_mode ${connection.authMode}, scope ${connection.adScope}): ${String((error as { message?: unknown } | null)?.message ?? error)}`,
        cause: error,
      });
    }
  };
}
