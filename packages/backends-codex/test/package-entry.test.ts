import { describeBackendPackageProblem } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { codexBackendConfigSchema, createBackend, manifest, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with a runner and a chat model', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'codex', specificationVersion: 'v1' });
    expect(entry.codexBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { CODEX_API_KEY: 'sk-x' }, rateLimiters: createRateLimiterRegistry() });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'codex', modelId: 'gpt-5.1', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5-mini' })).toMatchObject({ provider: 'codex', modelId: 'gpt-5-mini' });
  });

  it('fills the documented, safe defaults', () => {
    const parsed = codexBackendConfigSchema.parse({});
    expect(parsed).toEqual({
      timeout_ms: 600000,
      max_retries: 2,
      sandbox: 'read-only',
      approval_policy: 'never',
      network_access: false,
      web_search: false,
      skill_placement: 'agents-md',
      skill_name: 'skillopt-target',
    });
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'https://api.openai.com/v1', command: 'codex' });
  });

  it("finds the CLI at path, else at the original's CODEX_EXEC_PATH / CODEX_CLI_BIN / CODEX_PATH", () => {
    const parsed = codexBackendConfigSchema.parse({});
    expect(resolveRoleSettings(parsed, 'target', { CODEX_CLI_BIN: '/opt/codex', CODEX_PATH: '/other' }).command).toBe('/opt/codex');
    expect(resolveRoleSettings(codexBackendConfigSchema.parse({ path: '/mine' }), 'target', { CODEX_EXEC_PATH: '/opt/codex' }).command).toBe('/mine');
  });

  it('gives each role its own section over the top level, and the run config’s model over both', () => {
    const parsed = codexBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:1/v1',
      optimizer: { model: 'gpt-5', reasoning_effort: 'high', base_url: 'http://127.0.0.1:2/v1' },
    });
    expect(resolveRoleSettings(parsed, 'optimizer', {})).toMatchObject({ modelId: 'gpt-5', reasoningEffort: 'high', baseUrl: 'http://127.0.0.1:2/v1' });
    expect(resolveRoleSettings(parsed, 'optimizer', {}, 'gpt-5-nano').modelId).toBe('gpt-5-nano');
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'http://127.0.0.1:1/v1' });
  });

  it('is strict: an unknown key, an api_key, an unknown sandbox or placement is an error', () => {
    expect(codexBackendConfigSchema.safeParse({ sandboxx: 'read-only' }).success).toBe(false);
    expect(codexBackendConfigSchema.safeParse({ api_key: 'sk-x' }).success).toBe(false);
    expect(codexBackendConfigSchema.safeParse({ sandbox: 'none' }).success).toBe(false);
    expect(codexBackendConfigSchema.safeParse({ skill_placement: 'CLAUDE.md' }).success).toBe(false);
    expect(codexBackendConfigSchema.safeParse({ config_overrides: { 'bad key': 'x' } }).success).toBe(false);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: expect.stringContaining('backends.codex.timeout_ms') }),
    );
  });

  it('reads the key from the role’s variable, CODEX_API_KEY, then OPENAI_API_KEY, and says which to set when none is', () => {
    const backend = (environment: Record<string, string>) => createBackend({}, { environment, rateLimiters: createRateLimiterRegistry() });
    expect(() => backend({}).createAgentRunner({ role: 'target' })).toThrow(/TARGET_CODEX_API_KEY or CODEX_API_KEY or OPENAI_API_KEY/);
    expect(() => backend({ OPENAI_API_KEY: 'sk-openai' }).createAgentRunner({ role: 'target' })).not.toThrow();
    expect(manifest.credentials?.variableFor({}, 'optimizer')).toBe('OPTIMIZER_CODEX_API_KEY');
  });

  it('prices the tokens Codex reports from its own table, and knows nothing of a model it has no price for', () => {
    const calculator = createCostCalculator(priceTable);
    const cost = calculator.costOf('codex', 'gpt-5.1', { inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 });
    expect(cost?.totalUsd).toBeCloseTo(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10, 10);
    expect(cost?.estimated).toBe(false);
    expect(calculator.costOf('codex', 'sim-target', { inputTokens: 10, outputTokens: 1 })).toBeNull();
  });

  it("declares the original's codex_exec keys: profile, use_sdk and full_auto retired, the key's variable named", () => {
    const family = manifest.originalConfig?.keyFamilies?.[0];
    expect(family?.prefix).toBe('codex_exec_');
    expect(Object.keys(family?.retired ?? {})).toEqual(['profile', 'use_sdk', 'full_auto']);
    expect(family?.secretVariables?.shared).toBe('CODEX_API_KEY');
  });
});
