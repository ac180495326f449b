import { createMemoryRolloutCache, skillHash } from '../src/index';

describe('skillHash', () => {
  it("agrees with the original's skill_hash vectors", () => {
    expect(skillHash('')).toBe('e3b0c44298fc1c14');
    expect(skillHash('hello')).toBe('2cf24dba5fb0a30e');
    expect(skillHash('world')).toBe('486ea46224d1bb4f');
    expect(skillHash('# Skill\n')).toBe('74daeff849609b74');
  });
});

describe('the in-memory rollout cache', () => {
  const key = { skillHash: 'e3b0c44298fc1c14', itemId: 'q1', sampleIndex: 0, targetModelId: 'sim-target' };

  it('returns what was stored under the same key and nothing under another', async () => {
    const cache = createMemoryRolloutCache();
    const result = { status: 'scored' as const, id: 'q1', taskType: 'factoid', hard: 1, soft: 1, prediction: 'Paris' };
    await cache.set(key, result);
    expect(await cache.get(key)).toEqual(result);
    expect(await cache.get({ ...key, sampleIndex: 1 })).toBeUndefined();
    expect(await cache.get({ ...key, targetModelId: 'other-model' })).toBeUndefined();
  });

  it('never remembers an infrastructure failure', async () => {
    const cache = createMemoryRolloutCache();
    await cache.set(key, { status: 'errored', id: 'q1', taskType: 'factoid', error: { code: 'provider-timeout', message: 'slow', retryable: true } });
    expect(await cache.get(key)).toBeUndefined();
    expect(cache.size).toBe(0);
  });
});
