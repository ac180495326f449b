import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TaskItem } from '@skillopt/contract';
import { coreConfigSchema, train } from '@skillopt/core';
import { createSearchQaEnvironment } from '@skillopt/env-searchqa';
import { createBackend } from '../src/index';
import { hardWorldItems } from './hard-world-helpers';

// The test trains a whole run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

/** Items 0–7 of each kind train, 8–12 select, 13–18 test. */
function splitOf(item: TaskItem): 'train' | 'val' | 'test' {
  const index = Number(/-(\d+)$/.exec(item.id)?.[1]);
  return index < 8 ? 'train' : index < 13 ? 'val' : 'test';
}

/** The items as a SearchQA split root on disk. */
function writeSplitRoot(directory: string, items: readonly TaskItem[]): void {
  for (const split of ['train', 'val', 'test'] as const) {
    mkdirSync(path.join(directory, split), { recursive: true });
    const raw = items
      .filter((item) => splitOf(item) === split)
      .map((item) => ({
        id: item.id,
        question: item.question,
        answers: item.references,
        ...(item.answer_type === undefined ? {} : { answer_type: item.answer_type }),
      }));
    writeFileSync(path.join(directory, split, 'items.json'), JSON.stringify(raw, null, 2));
  }
}

describe('a whole training in the hard world', () => {
  it('ends with a best skill whose expected test score is above the initial skill and below the oracle', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'backends-sim-hard-world-'));
    directories.push(directory);
    const splitDirectory = path.join(directory, 'splits');
    writeSplitRoot(splitDirectory, hardWorldItems(19));

    const config = coreConfigSchema.parse({
      model: { target: 'sim-target', optimizer: 'sim-optimizer', target_backend: 'sim', optimizer_backend: 'sim' },
      train: { num_epochs: 2, batch_size: 12, seed: 42 },
      optimizer: { slow_update_samples: 12 },
      env: { name: 'searchqa', split_mode: 'split_dir', split_dir: splitDirectory },
      run: { retries: 1, rollout_concurrency: 8 },
    });
    const environment = createSearchQaEnvironment({ split_mode: 'split_dir', split_dir: splitDirectory });
    const backend = createBackend({ seed: 3, world: 'hard' });
    const splits = { train: await environment.loadSplit('train'), val: await environment.loadSplit('val'), test: await environment.loadSplit('test') };
    await backend.simulator.receiveTaskItems([...splits.train, ...splits.val, ...splits.test], splits);

    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: backend.createChatModel({ role: 'target' }) },
      optimizer: backend.createChatModel({ role: 'optimizer' }),
      runDirectory: path.join(directory, 'run'),
    });

    const world = backend.hardWorld;
    if (world === undefined) throw new Error('a backend with world: hard has a hard world');
    const initialSkill = await environment.initialSkill();
    const bestSkill = readFileSync(summary.bestSkillPath, 'utf8');
    const initial = world.expectedScore(splits.test, initialSkill);
    const best = world.expectedScore(splits.test, bestSkill);
    const oracle = world.oracle(splits.test, initialSkill);
    expect(summary.splitSizes).toEqual({ train: 48, val: 30, test: 36 });
    expect(best).toBeGreaterThan(initial);
    expect(best).toBeLessThan(oracle.score);
    // The ceiling is below 1 − noise: knowledge gaps and the surname/full-name conflict see to it.
    expect(oracle.score).toBeLessThan(1 - world.settings.noise);
  });
});
