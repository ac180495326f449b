import { describeBackendPackageProblem, isChatModel, SkillOptError } from '@skillopt/contract';
import { createCostCalculator } from '@skillopt/backends-kit';
import * as entry from '../src/index';

describe('the package entry', () => {
  it('is a backend package core can load: manifest, createBackend and a price table', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(entry.manifest).toMatchObject({ kind: 'backend', id: 'openai', specificationVersion: 'v1' });
    expect(entry.openAiBackendPackage.priceTable).toBe(entry.priceTable);
  });

  it('creates ChatModels per role', () => {
    const backend = entry.createBackend({ target: { preset: 'ollama' } }, { environment: { OPENAI_API_KEY: 'k' } });
    const target = backend.createChatModel({ role: 'target', modelId: 'llama3.2' });
    const optimizer = backend.createChatModel({ role: 'optimizer', modelId: 'gpt-4.1' });
    expect(isChatModel(target) && isChatModel(optimizer)).toBe(true);
    expect([target.provider, optimizer.provider]).toEqual(['ollama', 'openai']);
  });

  it('turns an invalid section into a config-invalid error', () => {
    let error: unknown;
    try {
      entry.createBackend({ presett: 'qwen' } as never);
    } catch (failure) {
      error = failure;
    }
    expect(SkillOptError.isInstance(error) && error.code).toBe('config-invalid');
  });

  it('ships prices with a source and a date, which the cost calculator accepts', () => {
    const costs = createCostCalculator(entry.priceTable);
    for (const price of entry.priceTable) {
      expect(price.source).not.toBe('');
      expect(price.asOf).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
    // 1M input of which 400k cached, 100k output on gpt-4.1: 0.6M × $2 + 0.4M × $0.50 + 0.1M × $8.
    expect(costs.costOf('openai', 'gpt-4.1', { inputTokens: 1_000_000, cachedInputTokens: 400_000, outputTokens: 100_000 })?.totalUsd).toBeCloseTo(2.2, 10);
    // Local servers cost nothing; a model nobody priced is unknown, never guessed.
    expect(costs.costOf('ollama', 'llama3.2', { inputTokens: 1000, outputTokens: 1000 })?.totalUsd).toBe(0);
    expect(costs.costOf('openai', 'gpt-4.1-2025-04-14', { inputTokens: 1, outputTokens: 1 })).toBeNull();
    expect(costs.costOf('azure-openai', 'gpt-4.1', { inputTokens: 1, outputTokens: 1 })).toBeNull();
    expect(costs.costOf('openai-compatible', 'sim-target', { inputTokens: 1, outputTokens: 1 })).toBeNull();
  });
});
