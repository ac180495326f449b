import { describeBackendPackageProblem } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { copilotBackendConfigSchema, createBackend, manifest, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with a runner and a chat model', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'copilot', specificationVersion: 'v1' });
    expect(entry.copilotBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { COPILOT_PROVIDER_API_KEY: 'sk-x' }, rateLimiters: createRateLimiterRegistry() });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'copilot', modelId: 'gpt-5.1', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5-mini' })).toMatchObject({ provider: 'copilot', modelId: 'gpt-5-mini' });
  });

  it('fills the documented, safe defaults', () => {
    const parsed = copilotBackendConfigSchema.parse({});
    expect(parsed).toEqual({
      timeout_ms: 600000,
      max_retries: 2,
      provider_type: 'openai',
      wire_api: 'completions',
      skill_placement: 'copilot-instructions',
      skill_name: 'skillopt-target',
      available_tools: ['bash', 'view', 'glob', 'grep'],
      allow_all_tools: false,
    });
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'https://api.openai.com/v1', command: 'copilot' });
  });

  it("finds the CLI at path, else at the original's COPILOT_EXEC_PATH", () => {
    expect(resolveRoleSettings(copilotBackendConfigSchema.parse({}), 'target', { COPILOT_EXEC_PATH: '/opt/copilot' }).command).toBe('/opt/copilot');
    expect(resolveRoleSettings(copilotBackendConfigSchema.parse({ path: '/mine' }), 'target', { COPILOT_EXEC_PATH: '/opt/copilot' }).command).toBe('/mine');
  });

  it('gives each role its own section over the top level, and the run config’s model over both', () => {
    const parsed = copilotBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:1/v1',
      optimizer: { model: 'gpt-5', reasoning_effort: 'high', base_url: 'http://127.0.0.1:2/v1' },
    });
    expect(resolveRoleSettings(parsed, 'optimizer', {})).toMatchObject({ modelId: 'gpt-5', reasoningEffort: 'high', baseUrl: 'http://127.0.0.1:2/v1' });
    expect(resolveRoleSettings(parsed, 'optimizer', {}, 'gpt-5-nano').modelId).toBe('gpt-5-nano');
    expect(resolveRoleSettings(parsed, 'target', {})).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'http://127.0.0.1:1/v1' });
  });

  it('is strict: an unknown key, an api_key, an unknown provider type, wire API or placement is an error that names the key', () => {
    expect(copilotBackendConfigSchema.safeParse({ skill_placment: 'skills-folder' }).success).toBe(false);
    expect(copilotBackendConfigSchema.safeParse({ api_key: 'sk-x' }).success).toBe(false);
    expect(copilotBackendConfigSchema.safeParse({ provider_type: 'github' }).success).toBe(false);
    expect(copilotBackendConfigSchema.safeParse({ wire_api: 'chat' }).success).toBe(false);
    expect(copilotBackendConfigSchema.safeParse({ skill_placement: 'AGENTS.md' }).success).toBe(false);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: expect.stringContaining('backends.copilot.timeout_ms') }),
    );
    expect(() => createBackend({ avaliable_tools: ['bash'] } as never)).toThrow(expect.objectContaining({ code: 'config-invalid' }));
  });

  it('reads the key from the role’s variable, then COPILOT_PROVIDER_API_KEY, and says which to set when none is', () => {
    const backend = (environment: Record<string, string>) => createBackend({}, { environment, rateLimiters: createRateLimiterRegistry() });
    expect(() => backend({}).createAgentRunner({ role: 'target' })).toThrow(/TARGET_COPILOT_PROVIDER_API_KEY or COPILOT_PROVIDER_API_KEY/);
    expect(() => backend({ JUDGE_COPILOT_PROVIDER_API_KEY: 'sk-judge' }).createChatModel({ role: 'judge' })).not.toThrow();
    expect(manifest.credentials?.variableFor({}, 'optimizer')).toBe('OPTIMIZER_COPILOT_PROVIDER_API_KEY');
  });

  it('prices the tokens of the usage report from its own table, and knows nothing of a model it has no price for', () => {
    const calculator = createCostCalculator(priceTable);
    const cost = calculator.costOf('copilot', 'gpt-5.1', { inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 });
    expect(cost?.totalUsd).toBeCloseTo(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10, 10);
    expect(cost?.estimated).toBe(false);
    expect(calculator.costOf('copilot', 'sim-target', { inputTokens: 10, outputTokens: 1 })).toBeNull();
  });

  it("declares the original's copilot_exec and copilot_chat keys: models renamed to role sections, home and timeout retired", () => {
    const [exec, chat] = manifest.originalConfig?.keyFamilies ?? [];
    expect(exec?.prefix).toBe('copilot_exec_');
    expect(Object.keys(exec?.retired ?? {})).toEqual(['home']);
    expect(copilotBackendConfigSchema.parse({ path: 'copilot', allow_all_tools: 'yes' })).toMatchObject({ path: 'copilot', allow_all_tools: true });
    expect(chat?.prefix).toBe('copilot_chat_');
    expect(chat?.renames).toEqual({ optimizer_model: 'optimizer.model', target_model: 'target.model' });
    expect(Object.keys(chat?.retired ?? {})).toEqual(['timeout']);
    expect(exec?.secretVariables?.shared).toBe('COPILOT_PROVIDER_API_KEY');
  });
});
