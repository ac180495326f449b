import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { chatCallErrorOf } from '../src/index';

describe('chatCallErrorOf', () => {
  it('turns a harness that ran out of time into a retryable provider-timeout, keeping its message, details and cause', () => {
    const timedOut = new ProviderError({
      code: ERROR_CODES.processTimeout,
      provider: 'harness',
      retryable: true,
      message: 'harness did not finish within its time limit (500 ms)',
      details: { durationMs: 500 },
    });
    const converted = chatCallErrorOf(timedOut) as ProviderError;
    expect(ProviderError.isInstance(converted)).toBe(true);
    expect(converted).toMatchObject({
      code: 'provider-timeout',
      provider: 'harness',
      retryable: true,
      message: timedOut.message,
      details: { durationMs: 500 },
    });
    expect(converted.cause).toBe(timedOut);
  });

  it('passes every other error through as it is', () => {
    const crashed = new ProviderError({ code: ERROR_CODES.processCrashed, provider: 'harness', retryable: true, message: 'killed' });
    const plain = new Error('boom');
    expect(chatCallErrorOf(crashed)).toBe(crashed);
    expect(chatCallErrorOf(plain)).toBe(plain);
  });
});
