import { describeBackendPackageProblem, isChatModel } from '@skillopt/contract';
import * as entry from '../src/index';
import { createBackend, hardWorldSettings, manifest } from '../src/index';
import { ask, GOOD_SKILL, hardScore, syntheticItems } from './helpers';

describe('the package entry', () => {
  it('is a valid backend package', () => {
    expect(describeBackendPackageProblem(entry)).toBeUndefined();
    expect(manifest).toMatchObject({ kind: 'backend', id: 'sim', specificationVersion: 'v1' });
    expect(manifest.description).toMatch(/SIMULATED/);
  });

  it('has a strict snake_case config schema with defaults', () => {
    const parsed = manifest.configSchema.safeParse({});
    expect(parsed).toEqual({
      success: true,
      data: {
        seed: 0,
        noise: 0.05,
        latency_ms: 0,
        harmful_rule_rate: 0.15,
        useless_rule_rate: 0.15,
        malformed_reply_rate: 0,
        world: 'demo',
        hard_world: {
          knowledge_gap_rate: 0.1,
          label_noise_rate: 0.1,
          instruction_budget: 6,
          overload_penalty: 0.06,
          misdiagnosis_rate: 0.2,
          over_specific_rule_rate: 0.15,
          vague_wording_rate: 0.3,
        },
      },
    });
    expect(
      manifest.configSchema.safeParse({ seed: 3, noise: 0, latency_ms: 5, harmful_rule_rate: 0, useless_rule_rate: 1, malformed_reply_rate: 0.1 }).success,
    ).toBe(true);
    expect(manifest.configSchema.safeParse({ latencyMs: 5 }).success).toBe(false);
    expect(manifest.configSchema.safeParse({ noise: 1.5 }).success).toBe(false);
    expect(manifest.configSchema.safeParse({ seed: 1.5 }).success).toBe(false);
    expect(manifest.configSchema.safeParse({ world: 'harder' }).success).toBe(false);
    expect(manifest.configSchema.safeParse({ hard_world: { knowledgeGapRate: 0.2 } }).success).toBe(false);
    expect(manifest.configSchema.safeParse({ hard_world: { instruction_budget: 2.5 } }).success).toBe(false);
  });

  it('builds the same hard world settings a run does', () => {
    expect(hardWorldSettings({ seed: 4, noise: 0, world: 'hard', hard_world: { instruction_budget: 3, label_noise_rate: 0 } })).toEqual({
      seed: 4,
      noise: 0,
      knowledgeGapRate: 0.1,
      labelNoiseRate: 0,
      instructionBudget: 3,
      overloadPenalty: 0.06,
      misdiagnosisRate: 0.2,
      overSpecificRuleRate: 0.15,
      vagueWordingRate: 0.3,
    });
    expect(() => hardWorldSettings({ hard_world: { vague_wording_rate: 2 } })).toThrow(expect.objectContaining({ code: 'config-invalid' }) as Error);
  });

  it('lives in the demo world unless told otherwise, and hands the hard world the splits it receives', async () => {
    expect(createBackend({}).hardWorld).toBeUndefined();
    const backend = createBackend({ seed: 2, world: 'hard', hard_world: { label_noise_rate: 1 } });
    const items = syntheticItems();
    const val = items.slice(0, 10);
    await backend.simulator.receiveTaskItems(items, { train: items.slice(10, 40), val, test: items.slice(40) });
    const world = backend.hardWorld;
    expect(world?.settings).toMatchObject({ seed: 2, labelNoiseRate: 1 });
    const model = backend.createChatModel({ role: 'target' });
    // Every selection item is mislabelled at rate 1: one the world answers right is scored wrong.
    const rightInTruth = val.filter((item) => world?.expectedItemScore(item, GOOD_SKILL) === 0.95);
    expect(rightInTruth.length).toBeGreaterThan(0);
    for (const item of rightInTruth) {
      const reply = await ask(model, GOOD_SKILL, item.question as string);
      expect(hardScore(reply, item.references as string[])).toBe(0);
    }
  });

  it('rejects a bad config with config-invalid', () => {
    expect(() => createBackend({ noise: -1 })).toThrow(expect.objectContaining({ code: 'config-invalid' }) as Error);
  });

  it('creates labelled chat models per role', () => {
    const backend = createBackend({});
    const targetModel = backend.createChatModel({ role: 'target' });
    const optimizerModel = backend.createChatModel({ role: 'optimizer' });
    expect(isChatModel(targetModel)).toBe(true);
    expect([targetModel.provider, targetModel.modelId, optimizerModel.modelId]).toEqual(['sim', 'sim-target', 'sim-optimizer']);
    expect(backend.createChatModel({ role: 'target', modelId: 'qwen3' }).modelId).toBe('sim-qwen3');
    expect(backend.createChatModel({ role: 'judge' }).modelId).toBe('sim-judge');
  });

  it('gives a model created before receiveTaskItems the answer key once it arrives', async () => {
    const items = syntheticItems();
    const backend = createBackend({ noise: 0 });
    const model = backend.createChatModel({ role: 'target' });
    const item = items[4];
    const before = await ask(model, GOOD_SKILL, item?.question as string);
    expect(hardScore(before, item?.references as string[])).toBe(0);
    await backend.simulator.receiveTaskItems(items);
    expect(backend.answerKey.size).toBe(items.length);
    expect(backend.answerKey.label).toMatch(/SIMULATED/);
    const after = await ask(model, GOOD_SKILL, item?.question as string);
    expect(hardScore(after, item?.references as string[])).toBe(1);
  });

  it('answers a request with a field it does not know, and says so in a warning', async () => {
    const backend = createBackend({ noise: 0 });
    await backend.simulator.receiveTaskItems(syntheticItems());
    const model = backend.createChatModel({ role: 'target' });
    const request = { messages: [{ role: 'user' as const, content: 'What is the capital of France?' }], purpose: 'rollout' };
    const plain = await model.generate(request);
    const extended = await model.generate({ ...request, seed: 42 } as typeof request);
    expect(extended.text).toBe(plain.text);
    expect(plain.warnings).toBeUndefined();
    expect(extended.warnings).toEqual([expect.objectContaining({ type: 'unknown-field', field: 'seed' })]);
  });

  it('reports settings a deterministic simulation cannot honour, and declares its capabilities', async () => {
    const model = createBackend({}).createChatModel({ role: 'target' });
    expect(model.capabilities).toMatchObject({ images: true, tools: true, reportedUsage: false });
    const reply = await model.generate({ messages: [{ role: 'user', content: 'hi' }], purpose: 'rollout', temperature: 0.7 });
    expect(reply.warnings).toEqual([expect.objectContaining({ type: 'unsupported-setting', field: 'temperature' })]);
  });

  it('refuses a request of the wrong shape as a bad request', async () => {
    const model = createBackend({}).createChatModel({ role: 'target' });
    await expect(model.generate({ messages: [], purpose: 'rollout' })).rejects.toMatchObject({ code: 'provider-bad-request' });
  });
});
