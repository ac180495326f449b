import { rolloutJobId } from '../src/index';

describe('rolloutJobId', () => {
  it('is the run id and the SHA-256 of the cache key, the same for the same rollout', () => {
    const id = rolloutJobId('run-1', 'key');
    expect(id).toBe('run-1-2c70e12b7a0646f92279f427c7b38e7334d8e5389cff167a1dc30e73f826b683');
    expect(rolloutJobId('run-1', 'key')).toBe(id);
    expect(rolloutJobId('run-1', 'other')).not.toBe(id);
  });
});
