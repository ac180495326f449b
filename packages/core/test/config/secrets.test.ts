import { isSecretKey, REDACTED, redactSecrets, redactSecretText, type PackageManifest } from '@skillopt/contract';
import { dropConfigSecrets, translateOriginalConfig, validateConfig } from '../../src/config/index.js';
import { STUB_BACKEND_PACKAGES } from './stub-packages.js';

describe('isSecretKey', () => {
  it.each([
    'api_key',
    'apiKey',
    'API_KEY',
    'azure_openai_api_key',
    'x-api-key',
    'token',
    'access_token',
    'githubToken',
    'secret',
    'client_secret',
    'password',
    'Authorization',
    'bearer',
    'credentials',
    'private_key',
    'cookie',
  ])('%s names a secret', (key) => expect(isSecretKey(key)).toBe(true));

  it.each([
    'max_tokens',
    'max_thinking_tokens',
    'rewrite_max_completion_tokens',
    'tokens',
    'token_budget',
    'keys',
    'api_version',
    'auth_mode',
    'ad_scope',
    'managed_identity_client_id',
    'secret_santa_list',
    'monkey',
  ])('%s does not', (key) => expect(isSecretKey(key)).toBe(false));
});

describe('secrets in configs are never kept', () => {
  it("drops a key from our format with a warning naming the variable the backend's manifest says it reads", () => {
    const asked: Array<[unknown, string | undefined]> = [];
    const openai: PackageManifest = {
      kind: 'backend',
      id: 'openai',
      specificationVersion: 'v1',
      configSchema: { safeParse: (input: unknown) => ({ success: true as const, data: input }) },
      credentials: {
        variables: [{ name: 'AZURE_OPENAI_API_KEY', usedBy: 'Azure OpenAI' }],
        variableFor: (section, role) => {
          asked.push([section, role]);
          return role === undefined ? 'AZURE_OPENAI_API_KEY' : `${role.toUpperCase()}_AZURE_OPENAI_API_KEY`;
        },
      },
    };
    const { config, warnings, dropped } = dropConfigSecrets(
      {
        backends: {
          openai: { preset: 'azure', api_key: 'abc', target: { api_key: 'def' } },
          anthropic: { apiKey: 'sk-ant-xxxxxxxxxxxxxxxxxxxxxxxx' },
          sim: { token: '' },
        },
        env: { name: 'officeqa', search_api_token: 'tok' },
      },
      { openai },
    );
    // The manifest is asked with the section as written (before the secret was dropped) and the role.
    expect(asked.map(([, role]) => role)).toEqual([undefined, 'target']);
    expect(asked[0]?.[0]).toMatchObject({ preset: 'azure' });
    expect(config).toEqual({ backends: { openai: { preset: 'azure', target: {} }, anthropic: {}, sim: {} }, env: { name: 'officeqa' } });
    expect(dropped).toEqual(['backends.openai.api_key', 'backends.openai.target.api_key', 'backends.anthropic.apiKey', 'env.search_api_token']);
    expect(warnings.map((warning) => warning.message)).toEqual([
      'backends.openai.api_key holds a secret, and secrets are never read from config files; it was ignored — set the environment variable AZURE_OPENAI_API_KEY instead',
      'backends.openai.target.api_key holds a secret, and secrets are never read from config files; it was ignored — set the environment variable TARGET_AZURE_OPENAI_API_KEY instead',
      'backends.anthropic.apiKey holds a secret, and secrets are never read from config files; it was ignored — set the environment variable ANTHROPIC_API_KEY instead',
      'env.search_api_token holds a secret, and secrets are never read from config files; it was ignored — set the environment variable OFFICEQA_SEARCH_API_TOKEN instead',
    ]);
  });

  it('validateConfig drops secrets before anything else sees them', () => {
    const { config, warnings } = validateConfig({ env: { name: 'x' }, backends: { openai: { api_key: 'sk-proj-abcdefghijklmnopqrstuvwx' } } });
    expect(JSON.stringify(config)).not.toContain('sk-proj');
    expect(warnings.map((warning) => warning.code)).toEqual(['secret-dropped', 'section-not-validated']);
  });

  const withFlatKeys = {
    model: {
      target_backend: 'minimax_chat',
      optimizer_backend: 'openai_chat',
      azure_openai_api_key: 'k1',
      minimax_api_key: 'k2',
      target_minimax_api_key: 'k3',
      optimizer_azure_openai_api_key: '',
    },
  };

  it("drops the original's flat API keys, naming the variable its package reads instead", () => {
    const { config, warnings } = translateOriginalConfig(withFlatKeys, { backendPackages: STUB_BACKEND_PACKAGES });
    expect(JSON.stringify(config)).not.toMatch(/k1|k2|k3/);
    expect(warnings.map((warning) => [warning.path, warning.message.split(' — ')[1]])).toEqual([
      ['model.azure_openai_api_key', 'set the environment variable AZURE_OPENAI_API_KEY instead'],
      ['model.minimax_api_key', 'set the environment variable MINIMAX_API_KEY instead'],
      ['model.target_minimax_api_key', 'set the environment variable TARGET_MINIMAX_API_KEY instead'],
    ]);
  });

  it('drops them too when their package is not installed, pointing to its documentation', () => {
    const { config, warnings } = translateOriginalConfig(withFlatKeys);
    expect(JSON.stringify(config)).not.toMatch(/k1|k2|k3/);
    expect(warnings.map((warning) => warning.code)).toEqual(['secret-dropped', 'secret-dropped', 'secret-dropped']);
    expect(warnings[0]?.message).toBe(
      'model.azure_openai_api_key holds a secret, and secrets are never read from config files; it was ignored — set the key in the environment variable the openai backend package documents instead',
    );
  });
});

describe('redactSecrets', () => {
  it('replaces the values of secret-looking keys at any depth, keeping empty ones visible as empty', () => {
    const artifact = {
      model: { target: 'gpt-5.5', max_tokens: 100 },
      backends: { openai: { apiKey: 'abc', api_key: '', headers: { Authorization: 'Bearer abcdefghijkl', 'x-api-key': 'xyz' } } },
      list: [{ password: 'hunter2' }, { token: null }],
      nested: { credentials: { user: 'u', pass: 'p' } },
    };
    expect(redactSecrets(artifact)).toEqual({
      model: { target: 'gpt-5.5', max_tokens: 100 },
      backends: { openai: { apiKey: REDACTED, api_key: '', headers: { Authorization: REDACTED, 'x-api-key': REDACTED } } },
      list: [{ password: REDACTED }, { token: null }],
      nested: { credentials: REDACTED },
    });
    expect(artifact.backends.openai.apiKey).toBe('abc');
  });

  it('hides credentials inside URLs: user:password@ and key-like query parameters', () => {
    expect(redactSecretText('http://user:hunter2@127.0.0.1:1/v1?api-key=zzz&x=1')).toBe('http://[redacted]@127.0.0.1:1/v1?api-key=[redacted]&x=1');
    expect(redactSecretText('https://example.com/v1?model=gpt&token=abc#top')).toBe('https://example.com/v1?model=gpt&token=[redacted]#top');
    expect(redactSecretText('https://example.com/a?b=c')).toBe('https://example.com/a?b=c');
  });

  it('replaces key-shaped strings wherever they appear', () => {
    expect(redactSecretText('curl -H "Authorization: Bearer eyJhbGciOi.abc-def_ghi" https://x')).toBe('curl -H "Authorization: Bearer [redacted]" https://x');
    expect(redactSecretText('key sk-proj-AbCdEfGhIjKlMnOpQrStUv12 failed')).toBe('key [redacted] failed');
    expect(redactSecretText('anthropic sk-ant-api03-AbCdEfGhIjKlMnOpQrSt')).toBe('anthropic [redacted]');
    expect(redactSecretText('gh token ghp_0123456789abcdefghijABCDEFGHIJ')).toBe('gh token [redacted]');
    expect(redactSecretText('aws AKIAABCDEFGHIJKLMNOP here')).toBe('aws [redacted] here');
    expect(redactSecrets({ log: ['call with sk-0123456789abcdefghijkl ok'] })).toEqual({ log: ['call with [redacted] ok'] });
  });

  it('leaves ordinary text, numbers and short sk- words alone, and cuts cycles', () => {
    expect(redactSecretText('the sk-learn model, task-1234, Bearer of news')).toBe('the sk-learn model, task-1234, Bearer of news');
    const cyclic: Record<string, unknown> = { name: 'x' };
    cyclic.self = cyclic;
    expect(redactSecrets(cyclic)).toEqual({ name: 'x', self: '[circular]' });
  });
});
