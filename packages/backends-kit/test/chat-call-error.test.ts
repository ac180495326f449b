import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { asChatCallError } from '../src/index';

describe('asChatCallError', () => {
  it('turns a timed-out process into a retryable provider-timeout that keeps the message, the details and the cause', () => {
    const timedOut = new ProviderError({
      code: ERROR_CODES.processTimeout,
      provider: 'copilot',
      retryable: true,
      message: 'copilot ran past its 5000 ms limit',
      details: { timedOut: true },
    });
    const error = asChatCallError(timedOut);
    expect(ProviderError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: 'provider-timeout', retryable: true, provider: 'copilot', message: timedOut.message, details: { timedOut: true } });
    expect((error as ProviderError).cause).toBe(timedOut);
  });

  it('returns every other error unchanged', () => {
    const crashed = new ProviderError({ code: ERROR_CODES.processCrashed, provider: 'copilot', retryable: true, message: 'killed' });
    const plain = new Error('plain');
    expect(asChatCallError(crashed)).toBe(crashed);
    expect(asChatCallError(plain)).toBe(plain);
    expect(asChatCallError('text')).toBe('text');
  });
});
