import { describeBackendPackageProblem } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { createBackend, manifest, piBackendConfigSchema, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package with a runner and a chat model', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'pi', specificationVersion: 'v1' });
    expect(entry.piBackendPackage.priceTable).toBe(priceTable);
    const backend = createBackend({}, { environment: { PI_API_KEY: 'sk-x' }, rateLimiters: createRateLimiterRegistry() });
    expect(backend.createAgentRunner({ role: 'target' })).toMatchObject({ provider: 'pi', modelId: 'gpt-5.1', defaultConcurrency: 2 });
    expect(backend.createChatModel({ role: 'optimizer', modelId: 'gpt-5-mini' })).toMatchObject({ provider: 'pi', modelId: 'gpt-5-mini' });
  });

  it('fills the documented, safe defaults: no tool list (the read tools), AGENTS.md, OpenAI over Chat Completions', () => {
    const parsed = piBackendConfigSchema.parse({});
    expect(parsed).toEqual({ timeout_ms: 600000, max_retries: 2, skill_placement: 'agents-md', skill_name: 'skillopt-target' });
    expect(resolveRoleSettings(parsed, 'target')).toMatchObject({
      modelId: 'gpt-5.1',
      baseUrl: 'https://api.openai.com/v1',
      api: 'openai-completions',
      command: 'pi',
      tools: undefined,
    });
  });

  it('gives each role its own section over the top level, and the run config’s model over both', () => {
    const parsed = piBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:1/v1/',
      thinking: 'none',
      optimizer: { model: 'claude-sonnet-4-6', api: 'anthropic-messages', base_url: 'http://127.0.0.1:2', thinking: 'high' },
    });
    expect(resolveRoleSettings(parsed, 'optimizer')).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      api: 'anthropic-messages',
      baseUrl: 'http://127.0.0.1:2',
      thinking: 'high',
    });
    expect(resolveRoleSettings(parsed, 'optimizer', 'gpt-5-nano').modelId).toBe('gpt-5-nano');
    expect(resolveRoleSettings(parsed, 'target')).toMatchObject({ modelId: 'gpt-5.1', baseUrl: 'http://127.0.0.1:1/v1', thinking: undefined });
  });

  it('is strict: an unknown key, an api_key, an unknown tool, API or placement is an error', () => {
    expect(piBackendConfigSchema.safeParse({ tool: ['read'] }).success).toBe(false);
    expect(piBackendConfigSchema.safeParse({ api_key: 'sk-x' }).success).toBe(false);
    expect(piBackendConfigSchema.safeParse({ tools: ['shell'] }).success).toBe(false);
    expect(piBackendConfigSchema.safeParse({ api: 'google-generative-ai' }).success).toBe(false);
    expect(piBackendConfigSchema.safeParse({ skill_placement: 'CLAUDE.md' }).success).toBe(false);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: expect.stringContaining('backends.pi.timeout_ms') }),
    );
  });

  it('reads the key from the role’s variable, PI_API_KEY, then the API’s own, and says which to set when none is', () => {
    const backend = (environment: Record<string, string>, config = {}) => createBackend(config, { environment, rateLimiters: createRateLimiterRegistry() });
    expect(() => backend({}).createAgentRunner({ role: 'target' })).toThrow(/TARGET_PI_API_KEY or PI_API_KEY or OPENAI_API_KEY/);
    expect(() => backend({ OPENAI_API_KEY: 'sk-openai' }).createAgentRunner({ role: 'target' })).not.toThrow();
    expect(() => backend({ OPENAI_API_KEY: 'sk-openai' }, { api: 'anthropic-messages' }).createAgentRunner({ role: 'target' })).toThrow(/ANTHROPIC_API_KEY/);
    expect(manifest.credentials?.variableFor({}, 'optimizer')).toBe('OPTIMIZER_PI_API_KEY');
  });

  it('prices the tokens Pi reports from its own table, and knows nothing of a model it has no price for', () => {
    const calculator = createCostCalculator(priceTable);
    const cost = calculator.costOf('pi', 'gpt-5.1', { inputTokens: 1_000_000, cachedInputTokens: 200_000, outputTokens: 100_000 });
    expect(cost?.totalUsd).toBeCloseTo(0.8 * 1.25 + 0.2 * 0.125 + 0.1 * 10, 10);
    expect(cost?.estimated).toBe(false);
    expect(calculator.costOf('pi', 'sim-target', { inputTokens: 10, outputTokens: 1 })).toBeNull();
  });
});
