import { SkillOptError, type GenerateRequest } from '@skillopt/contract';
import { createBackend } from '../src/index';
import type { FaultInjectingServer } from '@skillopt/backends-kit/testing';
import { completion, startOpenAiServer } from './openai-replies';

/*
 * Azure OpenAI through the SDK's AzureOpenAI client against a loopback "resource": the deployment
 * in the path, the api-version query, and the two ways to sign in (a key, or an Entra ID token
 * from the optional @azure/identity, here replaced by a stand-in module).
 */

let server: FaultInjectingServer;
beforeEach(async () => {
  server = await startOpenAiServer();
});
afterEach(async () => {
  await server.close();
});

const ask: GenerateRequest = {
  messages: [
    { role: 'system', content: 'Be brief.' },
    { role: 'user', content: 'Hello?' },
  ],
  purpose: 'reflect',
};

function fakeIdentity(calls: string[]) {
  class Credential {
    constructor(
      readonly kind: string,
      readonly options?: unknown,
    ) {
      calls.push(`${kind} ${JSON.stringify(options ?? {})}`);
    }
  }
  return {
    DefaultAzureCredential: class extends Credential {
      constructor(options?: unknown) {
        super('DefaultAzureCredential', options);
      }
    },
    ManagedIdentityCredential: class extends Credential {
      constructor(options?: unknown) {
        super('ManagedIdentityCredential', options);
      }
    },
    AzureCliCredential: class extends Credential {
      constructor() {
        super('AzureCliCredential');
      }
    },
    getBearerTokenProvider: (credential: { kind: string }, scope: string) => {
      calls.push(`token provider for ${credential.kind} ${scope}`);
      return async () => 'entra-access-token';
    },
  };
}

describe('Azure OpenAI', () => {
  it('calls the deployment with the api version and an api-key header', async () => {
    server.script({ kind: 'json', body: completion('Hi.') });
    const backend = createBackend(
      { preset: 'azure', endpoint: server.origin, api_version: '2025-04-01-preview', optimizer: { deployment: 'prod-gpt-41' } },
      { environment: { AZURE_OPENAI_API_KEY: 'azure-key-123', OPENAI_BASE_URL: 'http://must-not-be-used.invalid/v1' } },
    );
    const model = backend.createChatModel({ role: 'optimizer', modelId: 'gpt-4.1' });
    expect([model.provider, model.modelId]).toEqual(['azure-openai', 'gpt-4.1']);
    const result = await model.generate(ask);
    expect(result.text).toBe('Hi.');
    expect(result.providerMetadata).toMatchObject({ preset: 'azure', deployment: 'prod-gpt-41' });
    const [request] = server.requests;
    expect(request?.path).toBe('/openai/deployments/prod-gpt-41/chat/completions?api-version=2025-04-01-preview');
    expect(request?.headers['api-key']).toBe('azure-key-123');
    expect(request?.headers.authorization).toBeUndefined();
  });

  it('signs in with Microsoft Entra ID through @azure/identity, loaded only then', async () => {
    server.script({ kind: 'json', body: completion('Hi.') });
    const calls: string[] = [];
    let loads = 0;
    const backend = createBackend(
      { preset: 'azure', endpoint: server.origin, auth_mode: 'managed_identity', managed_identity_client_id: 'client-1' },
      {
        // A key in the environment must not clash with the token.
        environment: { AZURE_OPENAI_API_KEY: 'unused-key' },
        loadAzureIdentity: async () => {
          loads += 1;
          return fakeIdentity(calls);
        },
      },
    );
    const model = backend.createChatModel({ role: 'target', modelId: 'gpt-4o' });
    expect(loads).toBe(0);
    await model.generate(ask);
    await model.generate(ask);
    expect(loads).toBe(1);
    expect(calls).toEqual([
      'ManagedIdentityCredential {"clientId":"client-1"}',
      'token provider for ManagedIdentityCredential https://cognitiveservices.azure.com/.default',
    ]);
    expect(server.requests[0]?.headers.authorization).toBe('Bearer entra-access-token');
    expect(server.requests[0]?.headers['api-key']).toBeUndefined();
  });

  it('names `npm install @azure/identity` when the optional peer is missing', async () => {
    const backend = createBackend(
      { preset: 'azure', endpoint: server.origin, auth_mode: 'entra' },
      {
        environment: {},
        loadAzureIdentity: async () => {
          throw Object.assign(new Error("Cannot find package '@azure/identity' imported from /app/dist/index.js"), { code: 'ERR_MODULE_NOT_FOUND' });
        },
      },
    );
    const error: unknown = await backend
      .createChatModel({ role: 'target' })
      .generate(ask)
      .catch((failure: unknown) => failure);
    expect(SkillOptError.isInstance(error) && [error.code, error.retryable, error.category]).toEqual(['package-not-found', false, 'user']);
    expect((error as Error).message).toContain('npm install @azure/identity');
    expect(server.requests).toHaveLength(0);
  });

  it('reports a failed sign-in as a non-retryable authentication error', async () => {
    const identity = fakeIdentity([]);
    identity.getBearerTokenProvider = () => async () => {
      throw new Error('Please run az login to set up an account');
    };
    const backend = createBackend(
      { preset: 'azure', endpoint: server.origin, auth_mode: 'azure_cli' },
      { environment: {}, loadAzureIdentity: async () => identity },
    );
    const error: unknown = await backend
      .createChatModel({ role: 'target' })
      .generate(ask)
      .catch((failure: unknown) => failure);
    expect(SkillOptError.isInstance(error) && [error.code, error.retryable]).toEqual(['provider-authentication', false]);
    expect((error as Error).message).toContain('az login');
    expect(server.requests).toHaveLength(0);
  });

  it('loads the real optional peer by its computed name when it is installed', async () => {
    const { createAzureTokenProvider } = await import('../src/index');
    const provider = await createAzureTokenProvider(
      {
        endpoint: server.origin,
        apiVersion: '2024-12-01-preview',
        deployment: 'd',
        authMode: 'azure_cli',
        adScope: 'https://cognitiveservices.azure.com/.default',
      },
      'azure-openai',
    );
    expect(typeof provider).toBe('function');
  });
});
