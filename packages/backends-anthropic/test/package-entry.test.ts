import { addUsage, describeBackendPackageProblem, SkillOptError } from '@skillopt/contract';
import { createCostCalculator, createRateLimiterRegistry } from '@skillopt/backends-kit';
import * as entry from '../src/index';
import { anthropicBackendConfigSchema, createBackend, manifest, priceTable, resolveRoleSettings } from '../src/index';

describe('the package entry', () => {
  it('is a usable backend package', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'anthropic', specificationVersion: 'v1' });
    expect(entry.anthropicBackendPackage.priceTable).toBe(priceTable);
  });

  it('fills the documented defaults', () => {
    const parsed = anthropicBackendConfigSchema.parse({});
    expect(parsed).toEqual({ max_output_tokens: 16384, prompt_caching: true, timeout_ms: 600000, max_retries: 4 });
    const target = resolveRoleSettings(parsed, 'target');
    expect(target).toMatchObject({
      modelId: 'claude-sonnet-4-6',
      baseUrl: 'https://api.anthropic.com',
      maxOutputTokens: 16384,
      thinkingBudgetTokens: undefined,
      promptCaching: true,
      timeoutMs: 600000,
      maxRetries: 4,
    });
  });

  it('is strict: an unknown key, a misspelt one, or an api_key is an error', () => {
    expect(anthropicBackendConfigSchema.safeParse({ max_output_token: 5 }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ api_key: 'sk-ant-x' }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ target: { modle: 'x' } }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ base_url: 'ftp://example.com' }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ max_retries: -1 }).success).toBe(false);
    expect(() => createBackend({ prompt_cachin: false } as never)).toThrow(/prompt_cachin/);
    expect(() => createBackend({ timeout_ms: 0 })).toThrow(
      expect.objectContaining({ code: 'config-invalid', message: 'backends.anthropic.timeout_ms: Too small: expected number to be >=1' }),
    );
  });

  it('checks the thinking budget against Anthropic’s rules, per role', () => {
    expect(anthropicBackendConfigSchema.safeParse({ thinking_budget_tokens: 512 }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ thinking_budget_tokens: 16384 }).success).toBe(false);
    expect(anthropicBackendConfigSchema.safeParse({ thinking_budget_tokens: 4096 }).success).toBe(true);
    const roleTooSmall = anthropicBackendConfigSchema.safeParse({ thinking_budget_tokens: 4096, optimizer: { max_output_tokens: 2048 } });
    expect(roleTooSmall.success).toBe(false);
    if (!roleTooSmall.success) expect(roleTooSmall.error.issues[0]?.path).toEqual(['optimizer', 'thinking_budget_tokens']);
  });

  it('lets role sections override the top level, and the requested model win', () => {
    const config = anthropicBackendConfigSchema.parse({
      base_url: 'http://127.0.0.1:9999/',
      max_concurrency: 8,
      target: { model: 'claude-haiku-4-5', max_output_tokens: 2048, prompt_caching: false },
      optimizer: { model: 'claude-opus-4-8', thinking_budget_tokens: 8192, requests_per_minute: 50, timeout_ms: 900000 },
    });
    const target = resolveRoleSettings(config, 'target');
    expect(target).toMatchObject({ modelId: 'claude-haiku-4-5', baseUrl: 'http://127.0.0.1:9999', maxOutputTokens: 2048, promptCaching: false });
    expect(target.limits).toEqual({ maxConcurrency: 8, requestsPerMinute: undefined, tokensPerMinute: undefined });
    const optimizer = resolveRoleSettings(config, 'optimizer');
    expect(optimizer).toMatchObject({ modelId: 'claude-opus-4-8', thinkingBudgetTokens: 8192, timeoutMs: 900000 });
    expect(optimizer.limits).toEqual({ maxConcurrency: 8, requestsPerMinute: 50, tokensPerMinute: undefined });
    expect(resolveRoleSettings(config, 'optimizer', 'sim-optimizer').modelId).toBe('sim-optimizer');
    expect(resolveRoleSettings(config, 'judge').modelId).toBe('claude-sonnet-4-6');
  });

  it("reads the API key from the role's own variable, then ANTHROPIC_API_KEY, and says which when it is missing", () => {
    const backend = createBackend({}, { environment: {} });
    let failure: unknown;
    try {
      backend.createChatModel({ role: 'target' });
    } catch (error) {
      failure = error;
    }
    expect(SkillOptError.isInstance(failure)).toBe(true);
    expect(failure).toMatchObject({ code: 'config-invalid', retryable: false });
    expect((failure as Error).message).toMatch(
      /^backends\.anthropic: no API key for the target in the environment: set TARGET_ANTHROPIC_API_KEY or ANTHROPIC_API_KEY/,
    );

    const model = createBackend({}, { environment: { ANTHROPIC_API_KEY: 'sk-ant-secret' } }).createChatModel({ role: 'optimizer', modelId: 'claude-opus-4-8' });
    expect(model).toMatchObject({ provider: 'anthropic', modelId: 'claude-opus-4-8', specificationVersion: 'v1' });
    expect(JSON.stringify(model)).not.toContain('sk-ant-secret');
  });

  it('refuses two different limits for the one limit an account has at one base URL', () => {
    const backend = createBackend(
      { max_concurrency: 4, optimizer: { max_concurrency: 2 } },
      { environment: { ANTHROPIC_API_KEY: 'sk-ant-secret' }, rateLimiters: createRateLimiterRegistry() },
    );
    backend.createChatModel({ role: 'target' });
    expect(() => backend.createChatModel({ role: 'optimizer' })).toThrow(
      /share one rate limit, but they were given different limits \(max_concurrency 4; max_concurrency 2\)/,
    );

    const ownKeys = createBackend(
      { max_concurrency: 4, optimizer: { max_concurrency: 2 } },
      {
        environment: { TARGET_ANTHROPIC_API_KEY: 'sk-ant-target', OPTIMIZER_ANTHROPIC_API_KEY: 'sk-ant-optimizer' },
        rateLimiters: createRateLimiterRegistry(),
      },
    );
    ownKeys.createChatModel({ role: 'target' });
    expect(() => ownKeys.createChatModel({ role: 'optimizer' })).not.toThrow();
  });
});

describe('the price table', () => {
  it('has a source and date for every price and loads into the cost calculator', () => {
    expect(priceTable.length).toBeGreaterThan(0);
    for (const price of priceTable) {
      expect(price.provider).toBe('anthropic');
      expect(price.source).toMatch(/^https:\/\//);
      expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(price.cachedInputUsdPerMillionTokens).toBeCloseTo(price.inputUsdPerMillionTokens / 10, 10);
      expect(price.cacheWriteInputUsdPerMillionTokens).toBeCloseTo(price.inputUsdPerMillionTokens * 1.25, 10);
    }
    expect(new Set(priceTable.map((price) => price.modelId)).size).toBe(priceTable.length);
    expect(() => createCostCalculator(priceTable)).not.toThrow();
  });

  it('bills cache reads and writes at their own rates and leaves unknown models unpriced', () => {
    const costs = createCostCalculator(priceTable);
    const usage = addUsage({ inputTokens: 1_000_000 + 1_000_000, outputTokens: 1_000_000, cachedInputTokens: 1_000_000 });
    const cost = costs.costOf('anthropic', 'claude-sonnet-4-6', usage);
    expect(cost?.inputUsd).toBeCloseTo(3, 10);
    expect(cost?.cachedInputUsd).toBeCloseTo(0.3, 10);
    expect(cost?.outputUsd).toBeCloseTo(15, 10);
    const withWrites = costs.costOf('anthropic', 'claude-sonnet-4-6', { inputTokens: 1_000_000, cacheWriteInputTokens: 1_000_000, outputTokens: 0 });
    expect(withWrites?.cacheWriteInputUsd).toBeCloseTo(3.75, 10);
    expect(costs.costOf('anthropic', 'claude-sonnet-4-5', usage)).toBeNull(); // deprecated: left out
    expect(costs.costOf('anthropic', 'sim-target', usage)).toBeNull();
  });
});
