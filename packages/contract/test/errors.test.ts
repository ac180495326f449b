import { createRequire } from 'node:module';
import path from 'node:path';
import { ERROR_CODES, ProviderError, SkillOptError } from '../src/index';

describe('SkillOptError', () => {
  it('carries a stable code, a category and whether retrying may help', () => {
    const cause = new Error('ECONNRESET');
    const error = new ProviderError({
      code: ERROR_CODES.providerRateLimited,
      message: 'rate limited',
      provider: 'openai',
      status: 429,
      retryAfterMs: 2000,
      retryable: true,
      cause,
    });
    expect(error).toBeInstanceOf(Error);
    expect(error).toMatchObject({
      name: 'ProviderError',
      code: 'provider-rate-limited',
      category: 'provider',
      retryable: true,
      status: 429,
      retryAfterMs: 2000,
    });
    expect(error.cause).toBe(cause);
    expect(JSON.parse(JSON.stringify(error))).toEqual({
      name: 'ProviderError',
      code: 'provider-rate-limited',
      category: 'provider',
      retryable: true,
      message: 'rate limited',
    });
  });

  it('is not retryable unless told so', () => {
    expect(new SkillOptError({ code: 'config-invalid', category: 'user', message: 'bad key' }).retryable).toBe(false);
  });

  it('tells the subclass apart from the base', () => {
    const base = new SkillOptError({ code: 'internal', category: 'internal', message: 'x' });
    expect(SkillOptError.isInstance(base)).toBe(true);
    expect(ProviderError.isInstance(base)).toBe(false);
    expect(SkillOptError.isInstance(new Error('plain'))).toBe(false);
    expect(SkillOptError.isInstance(null)).toBe(false);
    expect(SkillOptError.isInstance({ code: 'internal' })).toBe(false);
  });

  // Needs the package built: its Nx test target depends on its own build.
  it('recognises errors thrown by another copy of the package', () => {
    // The built CommonJS file is a second copy of every class, as a duplicated install would be.
    const requireFromPackage = createRequire(path.join(__dirname, '..', 'package.json'));
    const otherCopy = requireFromPackage('./dist/index.cjs') as typeof import('../src/index');
    expect(otherCopy.ProviderError).not.toBe(ProviderError);

    const foreign = new otherCopy.ProviderError({ code: 'provider-timeout', message: 'slow', provider: 'sim' });
    expect(foreign instanceof ProviderError).toBe(false);
    expect(ProviderError.isInstance(foreign)).toBe(true);
    expect(SkillOptError.isInstance(foreign)).toBe(true);
    expect(otherCopy.SkillOptError.isInstance(new ProviderError({ code: 'x', message: 'y', provider: 'sim' }))).toBe(true);
  });
});
