import { describeBackendPackageProblem } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { createBackend, manifest, opencodeBackendConfigSchema, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with a runner and a chat model', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'opencode', specificationVersion: 'v1' });
    expect(entry.opencodeBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { OPENCODE_API_KEY: 'sk-x' }, rateLimiters: createRateLimiterRegistry() });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'opencode', modelId: 'gpt-5.1', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5-mini' })).toMatchObject({ provider: 'opencode', modelId: 'gpt-5-mini' });
  });

  it('fills the documented, safe defaults', () => {
    const parsed = opencodeBackendConfigSchema.parse({});
    expect(parsed).toEqual({
      timeout_ms: 600000,
      max_retries: 2,
      skill_placement: 'agents-md',
      skill_name: 'skillopt-target',
      allow_bash: false,
      pass_environment: [],
    });
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'https://api.openai.com/v1', command: 'opencode' });
  });

  it("finds the CLI at path, else at the original's SKILLOPT_SLEEP_OPENCODE_PATH", () => {
    const parsed = opencodeBackendConfigSchema.parse({});
    expect(resolveRoleSettings(parsed, 'target', { SKILLOPT_SLEEP_OPENCODE_PATH: '/opt/opencode' }).command).toBe('/opt/opencode');
    expect(resolveRoleSettings(opencodeBackendConfigSchema.parse({ path: '/mine' }), 'target', { SKILLOPT_SLEEP_OPENCODE_PATH: '/opt/opencode' }).command).toBe(
      '/mine',
    );
  });

  it('gives each role its own section over the top level, and the run config’s model over both', () => {
    const parsed = opencodeBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:1/v1',
      optimizer: { model: 'gpt-5', variant: 'high', base_url: 'http://127.0.0.1:2/v1' },
    });
    expect(resolveRoleSettings(parsed, 'optimizer', {})).toMatchObject({ modelId: 'gpt-5', variant: 'high', baseUrl: 'http://127.0.0.1:2/v1' });
    expect(resolveRoleSettings(parsed, 'optimizer', {}, 'gpt-5-nano').modelId).toBe('gpt-5-nano');
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'http://127.0.0.1:1/v1', variant: undefined });
  });

  it('is strict: an unknown key, an api_key, an unknown placement or tool id is an error naming the key', () => {
    expect(opencodeBackendConfigSchema.safeParse({ allow_bashh: true }).success).toBe(false);
    expect(opencodeBackendConfigSchema.safeParse({ api_key: 'sk-x' }).success).toBe(false);
    expect(opencodeBackendConfigSchema.safeParse({ skill_placement: 'CLAUDE.md' }).success).toBe(false);
    expect(opencodeBackendConfigSchema.safeParse({ allowed_tools: ['Read Files'] }).success).toBe(false);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: expect.stringContaining('backends.opencode.timeout_ms') }),
    );
  });

  it('reads the key from the role’s variable, OPENCODE_API_KEY, then OPENAI_API_KEY, and says which to set when none is', () => {
    const backend = (environment: Record<string, string>) => createBackend({}, { environment, rateLimiters: createRateLimiterRegistry() });
    expect(() => backend({}).createAgentRunner({ role: 'target' })).toThrow(/TARGET_OPENCODE_API_KEY or OPENCODE_API_KEY or OPENAI_API_KEY/);
    expect(() => backend({ OPENAI_API_KEY: 'sk-openai' }).createAgentRunner({ role: 'target' })).not.toThrow();
    expect(manifest.credentials?.variableFor({}, 'optimizer')).toBe('OPTIMIZER_OPENCODE_API_KEY');
  });

  it('prices the tokens OpenCode reports from its own table, and knows nothing of a model it has no price for', () => {
    const calculator = createCostCalculator(priceTable);
    const cost = calculator.costOf('opencode', 'gpt-5.1', { inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 });
    expect(cost?.totalUsd).toBeCloseTo(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10, 10);
    expect(cost?.estimated).toBe(false);
    expect(calculator.costOf('opencode', 'sim-target', { inputTokens: 10, outputTokens: 1 })).toBeNull();
  });
});
