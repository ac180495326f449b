import { composeConfigSchema, resolveConfig } from '@skillopt/core';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend, manifest, type CursorBackendConfig } from '../src/index';

/*
 * A config written for the original SkillOpt, read the way the CLI reads it (core's resolveConfig
 * with the schema composed from the loaded packages): cursor_exec is this backend, and its flat
 * `model.cursor_exec_*` keys land in `backends.cursor`.
 */

const withCursor = composeConfigSchema({ backends: { cursor: manifest } });
const original = (model: Record<string, unknown>) => ({ layers: [{ name: 'original.yaml', config: { model, env: { name: 'searchqa' } } }] });

describe("the original's cursor_exec keys, translated by this package's manifest", () => {
  it('turns cursor_exec and model.cursor_exec_path / _sandbox into a cursor section this backend runs with', async () => {
    const resolved = await resolveConfig({
      ...original({ target_backend: 'cursor_exec', target: 'composer-2.5', cursor_exec_path: '/opt/cursor-agent', cursor_exec_sandbox: 'disabled' }),
      schema: withCursor,
    });
    expect(resolved.originalFormat).toBe(true);
    expect(resolved.config.model.target_backend).toBe('cursor');
    const section = resolved.config.backends.cursor as CursorBackendConfig;
    expect(section).toMatchObject({ path: '/opt/cursor-agent', sandbox: 'disabled' });
    const runner = createBackend(section, { environment: { CURSOR_API_KEY: 'key_x' }, rateLimiters: createRateLimiterRegistry() }).createAgentRunner({
      role: 'target',
      modelId: resolved.config.model.target,
    });
    expect(runner).toMatchObject({ provider: 'cursor', modelId: 'composer-2.5' });
  });

  it('ignores the empty values the original shipped, leaving the defaults', async () => {
    const resolved = await resolveConfig({ ...original({ target_backend: 'cursor_exec', cursor_exec_path: '', cursor_exec_sandbox: '' }), schema: withCursor });
    expect(resolved.config.backends.cursor).toMatchObject({ sandbox: 'enabled' });
    expect((resolved.config.backends.cursor as CursorBackendConfig).path).toBeUndefined();
    expect(resolved.warnings.filter((warning) => JSON.stringify(warning).includes('cursor_exec_'))).toEqual([]);
  });
});
