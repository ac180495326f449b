import { describeBackendPackageProblem } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { createBackend, cursorBackendConfigSchema, manifest, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with a runner and a chat model', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'cursor', specificationVersion: 'v1' });
    expect(entry.cursorBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { CURSOR_API_KEY: 'key_x' }, rateLimiters: createRateLimiterRegistry() });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'cursor', modelId: 'composer-2.5', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'composer-1' })).toMatchObject({ provider: 'cursor', modelId: 'composer-1' });
  });

  it('fills the documented, safe defaults', () => {
    const parsed = cursorBackendConfigSchema.parse({});
    expect(parsed).toEqual({ timeout_ms: 240000, max_retries: 1, sandbox: 'enabled', skill_placement: 'agents-md', skill_name: 'skillopt-target' });
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'composer-2.5', command: 'cursor-agent', sandbox: 'enabled' });
  });

  it("finds the CLI at path, else at the original's CURSOR_EXEC_PATH, then SKILLOPT_SLEEP_CURSOR_PATH", () => {
    const parsed = cursorBackendConfigSchema.parse({});
    expect(resolveRoleSettings(parsed, 'target', { SKILLOPT_SLEEP_CURSOR_PATH: '/sleep', CURSOR_EXEC_PATH: '/opt/cursor-agent' }).command).toBe(
      '/opt/cursor-agent',
    );
    expect(resolveRoleSettings(parsed, 'target', { SKILLOPT_SLEEP_CURSOR_PATH: '/sleep' }).command).toBe('/sleep');
    expect(resolveRoleSettings(cursorBackendConfigSchema.parse({ path: '/mine' }), 'target', { CURSOR_EXEC_PATH: '/opt' }).command).toBe('/mine');
  });

  it('gives each role its own section over the top level, and the run config’s model over both', () => {
    const parsed = cursorBackendConfigSchema.parse({ timeout_ms: 1000, optimizer: { model: 'composer-1', timeout_ms: 2000, max_retries: 0 } });
    expect(resolveRoleSettings(parsed, 'optimizer', {})).toMatchObject({ modelId: 'composer-1', timeoutMs: 2000, maxRetries: 0 });
    expect(resolveRoleSettings(parsed, 'optimizer', {}, 'sonnet-4').modelId).toBe('sonnet-4');
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'composer-2.5', timeoutMs: 1000, maxRetries: 1 });
  });

  it('is strict: an unknown key, an api_key, an unknown sandbox or placement is an error naming its key', () => {
    expect(cursorBackendConfigSchema.safeParse({ sandboxx: 'enabled' }).success).toBe(false);
    expect(cursorBackendConfigSchema.safeParse({ api_key: 'key_x' }).success).toBe(false);
    expect(cursorBackendConfigSchema.safeParse({ sandbox: 'read-only' }).success).toBe(false);
    expect(cursorBackendConfigSchema.safeParse({ skill_placement: 'CLAUDE.md' }).success).toBe(false);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: expect.stringContaining('backends.cursor.timeout_ms') }),
    );
  });

  it('reads the key from the role’s variable, then CURSOR_API_KEY, and says which to set when none is', () => {
    const backend = (environment: Record<string, string>) => createBackend({}, { environment, rateLimiters: createRateLimiterRegistry() });
    expect(() => backend({}).createAgentRunner({ role: 'target' })).toThrow(/TARGET_CURSOR_API_KEY or CURSOR_API_KEY/);
    expect(() => backend({ TARGET_CURSOR_API_KEY: 'key_t' }).createAgentRunner({ role: 'target' })).not.toThrow();
    expect(manifest.credentials?.variableFor({}, 'optimizer')).toBe('OPTIMIZER_CURSOR_API_KEY');
  });

  it('prices the tokens from its own table, and knows nothing of a model it has no price for', () => {
    const calculator = createCostCalculator(priceTable);
    const cost = calculator.costOf('cursor', 'composer-1', { inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 });
    expect(cost?.totalUsd).toBeCloseTo(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10, 10);
    expect(cost?.estimated).toBe(false);
    expect(calculator.costOf('cursor', 'composer-1', { inputTokens: 1_000_000, outputTokens: 0, estimated: true })?.estimated).toBe(true);
    expect(calculator.costOf('cursor', 'composer-2.5', { inputTokens: 10, outputTokens: 1 })).toBeNull();
  });

  it("declares the original's cursor_exec keys, their shipped empty values and the key's variable", () => {
    const family = manifest.originalConfig?.keyFamilies?.[0];
    expect(family?.prefix).toBe('cursor_exec_');
    expect(family?.shippedDefaults).toEqual({ path: '', sandbox: '' });
    expect(family?.secretVariables?.shared).toBe('CURSOR_API_KEY');
  });
});
