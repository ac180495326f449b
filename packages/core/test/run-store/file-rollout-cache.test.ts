import { appendFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RolloutResult } from '@skillopt/contract';
import { skillHash } from '../../src/skill-hash';
import { createFileRolloutCache } from '../../src/run-store/index';

let directory: string;
beforeEach(async () => {
  directory = path.join(await mkdtemp(path.join(tmpdir(), 'skillopt-cache-')), 'rollouts');
});
afterEach(async () => {
  await rm(path.dirname(directory), { recursive: true, force: true });
});

const hash = skillHash('# skill\n');
const key = (itemId: string, sampleIndex = 0, targetModelId = 'sim-target') => ({ skillHash: hash, itemId, sampleIndex, targetModelId });
const scored = (id: string, hard: number): RolloutResult => ({ id, taskType: 'qa', status: 'scored', hard, soft: hard, prediction: `answer ${id}` });
const errored = (id: string): RolloutResult => ({
  id,
  taskType: 'qa',
  status: 'errored',
  error: { code: 'provider-timeout', message: 'timed out', retryable: true },
});

describe('the file rollout cache', () => {
  it('serves stored results after a reopen and counts hits and misses', async () => {
    const cache = createFileRolloutCache({ directory });
    expect(await cache.get(key('q1'))).toBeUndefined();
    await cache.set(key('q1'), scored('q1', 1));
    await cache.set(key('q2'), scored('q2', 0));
    expect(await cache.get(key('q1'))).toEqual(scored('q1', 1));
    expect(cache.stats()).toMatchObject({ hits: 1, misses: 1, stored: 2 });

    const reopened = createFileRolloutCache({ directory });
    expect(await reopened.get(key('q2'))).toEqual(scored('q2', 0));
    expect(await reopened.get(key('q2', 1))).toBeUndefined();
    expect(await reopened.get(key('q2', 0, 'other-model'))).toBeUndefined();
    expect(await reopened.get({ ...key('q2'), skillHash: skillHash('# other skill\n') })).toBeUndefined();
    expect(reopened.stats()).toMatchObject({ hits: 1, misses: 3, stored: 0 });
    expect(await readdir(directory)).toEqual([`${hash}.jsonl`]);
  });

  it('never stores an errored result', async () => {
    const cache = createFileRolloutCache({ directory });
    await cache.set(key('q1'), errored('q1'));
    expect(await cache.get(key('q1'))).toBeUndefined();
    expect(cache.stats().refusedErrored).toBe(1);
    expect(await createFileRolloutCache({ directory }).get(key('q1'))).toBeUndefined();
    await expect(readdir(directory)).rejects.toThrow();
  });

  it('ignores a torn last line and keeps working after it', async () => {
    const first = createFileRolloutCache({ directory });
    await first.set(key('q1'), scored('q1', 1));
    const file = path.join(directory, `${hash}.jsonl`);
    await appendFile(file, '{"itemId":"q2","sampleIndex":0,"targetModelId":"sim-tar');

    const skipped: string[] = [];
    const second = createFileRolloutCache({ directory, onSkippedLines: (report) => skipped.push(report.tornFinalLine ?? '') });
    expect(await second.get(key('q1'))).toEqual(scored('q1', 1));
    expect(await second.get(key('q2'))).toBeUndefined();
    expect(second.stats().skippedLines).toBe(1);
    expect(skipped).toHaveLength(1);
    await second.set(key('q2'), scored('q2', 0));

    const third = createFileRolloutCache({ directory });
    expect(await third.get(key('q2'))).toEqual(scored('q2', 0));
    expect(await third.get(key('q1'))).toEqual(scored('q1', 1));
    expect((await readFile(file, 'utf8')).split('\n').filter((line) => line !== '')).toHaveLength(3);
  });

  it('skips lines that are not valid scored rollouts, and the last line for a key wins', async () => {
    const cache = createFileRolloutCache({ directory });
    await cache.set(key('q1'), scored('q1', 0));
    await cache.set(key('q1'), scored('q1', 1));
    await appendFile(
      path.join(directory, `${hash}.jsonl`),
      `${JSON.stringify({ itemId: 'q3', sampleIndex: 0, targetModelId: 'sim-target', result: errored('q3') })}\n`,
    );
    const reopened = createFileRolloutCache({ directory });
    expect(await reopened.get(key('q1'))).toEqual(scored('q1', 1));
    expect(await reopened.get(key('q3'))).toBeUndefined();
    expect(reopened.stats().skippedLines).toBe(1);
  });

  it('refuses skill hashes that are not plain names', async () => {
    const cache = createFileRolloutCache({ directory });
    await expect(cache.get({ ...key('q1'), skillHash: '../escape' })).rejects.toThrow(/not a plain name/);
  });
});
