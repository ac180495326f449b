import { ERROR_CODES } from '@skillopt/contract';
import { readBaseUrl } from '../src/index';

describe('readBaseUrl', () => {
  it('takes the query off the URL the SDK gets, and keeps it apart for every request', () => {
    expect(readBaseUrl('openai', 'base_url', 'https://gateway.example/v1/?api-key=query-secret-99&region=eu')).toEqual({
      url: 'https://gateway.example/v1',
      query: { 'api-key': 'query-secret-99', region: 'eu' },
    });
    expect(readBaseUrl('anthropic', 'base_url', 'http://127.0.0.1:8787/')).toEqual({ url: 'http://127.0.0.1:8787', query: {} });
  });

  it('refuses a user name or password, naming where the URL came from but not the password', () => {
    let failure: unknown;
    try {
      readBaseUrl('anthropic', 'backends.anthropic.base_url', 'http://user:hunter2-pass@127.0.0.1:8787');
    } catch (error) {
      failure = error;
    }
    expect(failure).toMatchObject({ code: ERROR_CODES.configInvalid, category: 'user', retryable: false });
    const message = (failure as Error).message;
    expect(message).toMatch(
      /^backends\.anthropic: backends\.anthropic\.base_url carries a user name or password \(http:\/\/\[redacted\]@127\.0\.0\.1:8787\/\)/,
    );
    expect(message).not.toContain('hunter2-pass');
    expect(message).not.toContain('user:');
  });

  it('refuses text that is not a URL without echoing a key in it', () => {
    expect(() => readBaseUrl('openai', 'OPENAI_BASE_URL', 'api_key=sk-abcdefghijklmnop')).toThrow(/OPENAI_BASE_URL is not a URL \(api_key=\[redacted\]\)/);
  });
});
