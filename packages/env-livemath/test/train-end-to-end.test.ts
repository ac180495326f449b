import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { createBackend } from '@skillopt/backends-sim';
import { coreConfigSchema, train } from '@skillopt/core';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('training on the fixture split with the simulated model', () => {
  it('runs one epoch of core train() to the end and reports test scores', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'env-livemath-train-'));
    directories.push(directory);
    const runDirectory = path.join(directory, 'run');

    const config = coreConfigSchema.parse({
      model: { target: 'sim-target', optimizer: 'sim-optimizer', target_backend: 'sim', optimizer_backend: 'sim' },
      train: { num_epochs: 1, batch_size: 4, seed: 3 },
      gradient: { minibatch_size: 4, merge_batch_size: 2, analyst_workers: 2 },
      optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4 },
      env: { name: 'livemath', split_dir: FIXTURE_SPLIT_DIR },
      run: { retries: 1, rollout_concurrency: 4 },
    });
    const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });
    const backend = createBackend({ seed: 5 });
    const items = [...(await environment.loadSplit('train')), ...(await environment.loadSplit('val')), ...(await environment.loadSplit('test'))];
    backend.simulator.receiveTaskItems(items);

    const events: RunEvent[] = [];
    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: backend.createChatModel({ role: 'target' }) },
      optimizer: backend.createChatModel({ role: 'optimizer' }),
      runDirectory,
      onEvent: (event) => events.push(event),
    });

    expect(summary.environmentId).toBe('livemath');
    expect(summary.splitSizes).toEqual({ train: 8, val: 4, test: 4 });
    expect(summary.epochs).toBe(1);
    expect(summary.test).not.toBeNull();
    for (const scores of [summary.test!.initial, summary.test!.best]) {
      for (const value of [scores.hard, scores.soft]) {
        expect(value).toBeGreaterThanOrEqual(0);
        expect(value).toBeLessThanOrEqual(1);
      }
      // Multiple choice has no partial credit.
      expect(scores.soft).toBe(scores.hard);
    }
    expect(summary.excludedItems).toEqual([]);
    expect(events.at(-1)?.type).toBe('run-finished');
    const rolledOut = events.filter((event) => event.type === 'item-rolled-out');
    expect(rolledOut.length).toBeGreaterThan(0);
    expect(readFileSync(summary.bestSkillPath, 'utf8').length).toBeGreaterThan(0);
  });
});
