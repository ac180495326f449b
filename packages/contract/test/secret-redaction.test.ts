import { REDACTED, isSecretKey, redactSecretText, redactSecrets } from '../src/index';

describe('secret redaction', () => {
  it.each([
    'sk-ABCDEFGHIJ1234567890',
    'Authorization: Bearer eyJhbGciOi.JIUzI1Ni.qwerty',
    'api_key=super-secret-value',
    'token: abc123def456ghi',
    'AKIAIOSFODNN7EXAMPLE',
    'ghp_AbCdEf0123456789AbCdEf0123',
    'eyJhbGci0123.eyJzdWIi4567.SflKxwRJ89',
    '{"call_error":"exit 1: api_key=leaked-key-123"}',
    'Server=db;Database=x;Password=hunter2;',
    'Server=db;PWD=hunter2',
    'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc123==;EndpointSuffix=core',
    'https://a.blob.core/c?sv=2024&sig=abcdefghijKLMNOP%3D',
    'AZURE_CLIENT_SECRET=abc.def.ghi',
    'clientsecret: "quoted value here"',
    'connect to https://alice:s3cret@proxy.internal:8080/v1',
    'GET /v1/models?api_key=abcdef123456 HTTP/1.1',
    'xoxb-1234567890-abcdef',
    'AIzaSyA1234567890abcdefghijklmnopqrstu',
    'https://apim.example/v1?subscription-key=abcdef123456',
    'https://fn.azurewebsites.net/api/f?code=abcdef123456&name=x',
    'POST /v1?x=1&x-api-key=abcdef123456/chat/completions',
    'https://gateway.example/v1?auth=abcdef123456',
  ])('cuts the secret out of %s', (text) => {
    const redacted = redactSecretText(text);
    expect(redacted).toContain(REDACTED);
    for (const secret of [
      'ABCDEFGHIJ1234567890',
      'qwerty',
      'super-secret-value',
      'abc123def456ghi',
      'IOSFODNN7EXAMPLE',
      'AbCdEf0123456789',
      'SflKxwRJ89',
      'leaked-key-123',
      'hunter2',
      'abc123==',
      'KLMNOP',
      'abc.def.ghi',
      'quoted value here',
      's3cret',
      'abcdef123456',
      '1234567890-abcdef',
      'SyA1234567890',
    ])
      expect(redacted).not.toContain(secret);
  });

  it('removes a whole PEM private key block, so a later cut cannot leave part of it', () => {
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'MIIEowIBAAKCAQEA'.repeat(30)}\n-----END RSA PRIVATE KEY-----`;
    expect(redactSecretText(`key:\n${pem}\ndone`)).toBe(`key:\n${REDACTED}\ndone`);
  });

  it("follows the harvesters' vectors: the word stays, the value goes", () => {
    expect(redactSecretText('run deploy with sk-1234567890abcdef and token local-secret')).toBe(`run deploy with ${REDACTED} and token ${REDACTED}`);
    expect(redactSecretText('token=local-secret')).toBe(`token=${REDACTED}`);
    expect(redactSecretText('password: assistant-secret.')).toBe(`password: ${REDACTED}`);
  });

  it.each([
    'the gate rejected the edit',
    'held-out 1.000 -> 0.000 reject',
    'the token budget is spent',
    'send a password reset link',
    'max_tokens: 4000',
    'the secret of good answers is brevity',
    'https://example.com/search?q=keyboard&page=2',
  ])('leaves prose and ordinary settings alone: %s', (text) => {
    expect(redactSecretText(text)).toBe(text);
  });

  it('cuts out the secrets it is given wherever they appear', () => {
    expect(redactSecretText('proxy echoed my-own-key-value back', ['my-own-key-value', undefined])).toBe(`proxy echoed ${REDACTED} back`);
  });

  it('redacts values under secret keys in data, keeps unset ones visible, and survives cycles', () => {
    const data: Record<string, unknown> = { apiKey: 'abc', nested: { AZURE_OPENAI_API_KEY: 'x', token: '', note: 'Bearer abcdefghijkl' }, max_tokens: 10 };
    data.self = data;
    expect(redactSecrets(data)).toEqual({
      apiKey: REDACTED,
      nested: { AZURE_OPENAI_API_KEY: REDACTED, token: '', note: `Bearer ${REDACTED}` },
      max_tokens: 10,
      self: '[circular]',
    });
  });

  it('knows secret key names in every spelling, and that PWD is a directory', () => {
    for (const key of [
      'api_key',
      'apiKey',
      'x-api-key',
      'subscription-key',
      'OPENAI_API_KEY',
      'access_token',
      'refreshToken',
      'client_secret',
      'password',
      'Authorization',
      'AccountKey',
      'sig',
      'pwd',
    ])
      expect(isSecretKey(key)).toBe(true);
    for (const key of ['PWD', 'max_tokens', 'tokens', 'model', 'keyword', 'monkey']) expect(isSecretKey(key)).toBe(false);
  });
});
