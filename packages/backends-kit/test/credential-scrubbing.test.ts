import { scrubCredentials } from '../src/index';

describe('scrubCredentials', () => {
  it('cuts out the known secrets and anything shaped like a credential', () => {
    const text = 'echo: key=my-own-secret-value, Authorization: Bearer abcdefghijklmnop, sk-proj-ABCDEFGHIJ, https://user:pw@gateway.test/v1';
    expect(scrubCredentials(text, ['my-own-secret-value'])).toBe('echo: key=[redacted], Authorization: Bearer [redacted], [redacted], https://[redacted]@gateway.test/v1');
  });

  it('leaves ordinary text and too-short "secrets" alone', () => {
    expect(scrubCredentials('model gpt-5 not found', ['abc', undefined])).toBe('model gpt-5 not found');
  });
});
