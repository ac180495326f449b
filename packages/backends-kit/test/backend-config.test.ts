import { SkillOptError } from '@skillopt/contract';
import { z } from 'zod';
import { backendConfigError, parseBackendConfig } from '../src/index';

const schema = z.strictObject({
  timeout_ms: z.int().min(1).default(60_000),
  target: z.strictObject({ base_url: z.url() }).optional(),
});

function failureOf(work: () => unknown): SkillOptError {
  try {
    work();
  } catch (error) {
    if (SkillOptError.isInstance(error)) return error;
    throw error;
  }
  throw new Error('expected a failure');
}

describe('parseBackendConfig', () => {
  it('returns the parsed section with its defaults, an absent section included', () => {
    expect(parseBackendConfig(schema, { target: { base_url: 'http://127.0.0.1:8000/v1' } }, 'demo')).toEqual({
      timeout_ms: 60_000,
      target: { base_url: 'http://127.0.0.1:8000/v1' },
    });
    expect(parseBackendConfig(schema, undefined, 'demo')).toEqual({ timeout_ms: 60_000 });
  });

  it('lists every problem at its full key in one config-invalid error', () => {
    const error = failureOf(() => parseBackendConfig(schema, { timeout_ms: 0, target: { base_url: 'nowhere' }, tiemout: 1 }, 'demo'));
    expect(error).toMatchObject({ code: 'config-invalid', category: 'user', retryable: false });
    expect(error.message).toBe(
      'backends.demo.timeout_ms: Too small: expected number to be >=1; backends.demo.target.base_url: Invalid URL; backends.demo: Unrecognized key: "tiemout"',
    );
    expect(error.details).toMatchObject({ backend: 'demo', issues: expect.arrayContaining([{ path: ['target', 'base_url'], message: 'Invalid URL' }]) });
  });
});

describe('backendConfigError', () => {
  it('starts with the section’s key and is never retried', () => {
    const error = backendConfigError('openai', 'the vllm preset needs a server: set backends.openai.base_url', { role: 'target' });
    expect(error.message).toBe('backends.openai: the vllm preset needs a server: set backends.openai.base_url');
    expect(error).toMatchObject({ code: 'config-invalid', category: 'user', retryable: false, details: { backend: 'openai', role: 'target' } });
  });
});
