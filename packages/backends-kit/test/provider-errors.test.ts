import { ERROR_CODES, ProviderError, SkillOptError } from '@skillopt/contract';
import { parseRetryAfter, providerErrorFromNetworkFailure, providerErrorFromResponse, readHeader } from '../src/index';

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');

  it('reads delay-seconds, fractional seconds and retry-after-ms', () => {
    expect(parseRetryAfter({ 'retry-after': '7' }, now)).toBe(7000);
    expect(parseRetryAfter({ 'retry-after': '1.5' }, now)).toBe(1500);
    expect(parseRetryAfter({ 'retry-after-ms': '250' }, now)).toBe(250);
  });

  it('prefers retry-after-ms, which is more precise', () => {
    expect(parseRetryAfter({ 'retry-after': '1', 'retry-after-ms': '1234' }, now)).toBe(1234);
  });

  it('reads an HTTP-date against the given clock, and a past date as 0', () => {
    expect(parseRetryAfter({ 'retry-after': 'Thu, 01 Jan 2026 00:00:30 GMT' }, now)).toBe(30_000);
    expect(parseRetryAfter({ 'retry-after': 'Wed, 31 Dec 2025 23:59:00 GMT' }, now)).toBe(0);
  });

  it('reads a fetch Headers object case-insensitively', () => {
    expect(parseRetryAfter(new Headers({ 'Retry-After': '3' }), now)).toBe(3000);
    expect(readHeader({ 'X-Request-Id': ['abc', 'def'] }, 'x-request-id')).toBe('abc');
  });

  it('gives undefined when there is nothing readable, rather than a guess', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter({}, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': 'soon' }, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '-5' }, now)).toBeUndefined();
    expect(parseRetryAfter({ 'retry-after': '' }, now)).toBeUndefined();
  });
});

describe('providerErrorFromResponse', () => {
  it.each([
    [429, ERROR_CODES.providerRateLimited, true],
    [408, ERROR_CODES.providerTimeout, true],
    [504, ERROR_CODES.providerTimeout, true],
    [409, ERROR_CODES.providerUnavailable, true],
    [500, ERROR_CODES.providerUnavailable, true],
    [503, ERROR_CODES.providerUnavailable, true],
    [401, ERROR_CODES.providerAuthentication, false],
    [403, ERROR_CODES.providerAuthentication, false],
    [404, ERROR_CODES.modelNotFound, false],
    [400, ERROR_CODES.providerBadRequest, false],
    [422, ERROR_CODES.providerBadRequest, false],
    [302, ERROR_CODES.providerUnavailable, false],
  ])('HTTP %i → %s (retryable %s)', (status, code, retryable) => {
    const error = providerErrorFromResponse({ provider: 'sim', status });
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code, retryable, status, provider: 'sim', category: 'provider' });
    expect(error.message).toContain(`HTTP ${status}`);
  });

  it('carries the retry-after wait and a shortened detail', () => {
    const error = providerErrorFromResponse({ provider: 'sim', status: 429, headers: { 'retry-after': '2' }, detail: 'x'.repeat(2000) });
    expect(error.retryAfterMs).toBe(2000);
    expect(error.message.length).toBeLessThan(600);
  });

  it('scrubs the detail of the key it is given and of anything key-shaped a gateway echoed', () => {
    const error = providerErrorFromResponse({
      provider: 'sim',
      status: 502,
      detail: 'upstream refused x-api-key: plain-key-value-1234 for http://user:hunter2-pass@gateway/v1?api-key=query-secret-99',
      knownSecrets: ['plain-key-value-1234'],
    });
    expect(error.message).not.toMatch(/plain-key-value-1234|hunter2-pass|query-secret-99/);
    expect(error.message).toContain('http://[redacted]@gateway/v1?api-key=[redacted]');
  });
});

describe('providerErrorFromNetworkFailure', () => {
  it('turns a reset connection into a retryable provider-connection error', () => {
    const cause = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    const error = providerErrorFromNetworkFailure('sim', new TypeError('fetch failed', { cause }));
    expect(error).toMatchObject({ code: ERROR_CODES.providerConnection, retryable: true });
  });

  it('turns a timeout into a retryable provider-timeout error', () => {
    const error = providerErrorFromNetworkFailure('sim', new DOMException('The operation timed out.', 'TimeoutError'));
    expect(error).toMatchObject({ code: ERROR_CODES.providerTimeout, retryable: true });
  });

  it('scrubs the failed URL in the message of its credentials and of the key it is given', () => {
    const failure = new TypeError(
      'Request cannot be constructed from a URL that includes credentials: http://user:hunter2-pass@127.0.0.1:9/v1?key=query-secret-99',
    );
    const error = providerErrorFromNetworkFailure('sim', failure, ['the-key-itself-0001']);
    expect(error.message).not.toMatch(/hunter2-pass|query-secret-99/);
    const echoed = providerErrorFromNetworkFailure('sim', new Error('socket hang up sending the-key-itself-0001'), ['the-key-itself-0001']);
    expect(echoed.message).toBe('could not reach sim: socket hang up sending [redacted]');
  });

  it('keeps a SkillOptError as it is and does not call an unknown failure retryable', () => {
    const existing = new SkillOptError({ code: 'internal', category: 'internal', message: 'x' });
    expect(providerErrorFromNetworkFailure('sim', existing)).toBe(existing);
    expect(providerErrorFromNetworkFailure('sim', new Error('something odd'))).toMatchObject({ retryable: false });
  });
});
