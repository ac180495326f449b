import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import { createPackageResolver } from '@skillopt/core';
import { loadBullmqExecutor } from '../src/distributed/bullmq-executor-package';
import { redisUrlOf } from '../src/distributed/redis-url';

describe('the Redis URL of a distributed run', () => {
  it('comes from --redis-url without credentials, else from SKILLOPT_REDIS_URL, which may carry them', () => {
    expect(redisUrlOf('redis://127.0.0.1:6379', {})).toBe('redis://127.0.0.1:6379');
    expect(redisUrlOf(undefined, { SKILLOPT_REDIS_URL: 'redis://user:secret-pass@host:6379' })).toBe('redis://user:secret-pass@host:6379');
  });

  it('is refused with credentials on the command line, pointing at SKILLOPT_REDIS_URL, without showing them', () => {
    for (const url of ['redis://user:secret-pass@host:6379', 'redis://:secret-pass@host:6379']) {
      const error = (() => {
        try {
          redisUrlOf(url, {});
        } catch (caught) {
          return caught;
        }
      })();
      expect(SkillOptError.isInstance(error) && error.category).toBe('user');
      expect((error as Error).message).toMatch(/put the URL in the environment variable SKILLOPT_REDIS_URL instead/);
      expect((error as Error).message).not.toContain('secret-pass');
    }
  });

  it('is asked for when neither is given', () => {
    expect(() => redisUrlOf(undefined, {})).toThrow('no Redis to use: give --redis-url redis://host:6379, or set SKILLOPT_REDIS_URL');
  });
});

describe('@skillopt/executor-bullmq', () => {
  it('missing, is a user error with the npm install that fixes it', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-no-executor-'));
    try {
      const loading = loadBullmqExecutor(createPackageResolver({ workingDirectory: directory }));
      await expect(loading).rejects.toThrow(/npm install @skillopt\/executor-bullmq$/);
    } finally {
      rmSync(directory, { recursive: true, force: true });
    }
  });
});
