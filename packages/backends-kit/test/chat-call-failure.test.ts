import { ERROR_CODES, ProviderError } from '@skillopt/contract';
import { asChatCallFailure } from '../src/index';

describe('asChatCallFailure', () => {
  it("turns a harness run's process-timeout into a retryable provider-timeout that keeps its message, details and cause", () => {
    const timeout = new ProviderError({
      code: ERROR_CODES.processTimeout,
      provider: 'pi',
      retryable: true,
      message: 'pi timed out',
      details: { timedOut: true },
    });
    const failure = asChatCallFailure(timeout);
    expect(failure).toMatchObject({ code: 'provider-timeout', provider: 'pi', retryable: true, message: 'pi timed out', details: { timedOut: true } });
    expect((failure as ProviderError).cause).toBe(timeout);
  });

  it('returns every other error as it is', () => {
    const crash = new ProviderError({ code: ERROR_CODES.processCrashed, provider: 'pi', retryable: true, message: 'killed' });
    const plain = new Error('other');
    expect(asChatCallFailure(crash)).toBe(crash);
    expect(asChatCallFailure(plain)).toBe(plain);
  });
});
