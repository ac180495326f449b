import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { createBackend, readSkillRules } from '@skillopt/backends-sim';
import { coreConfigSchema, train } from '@skillopt/core';
import { createRecordingChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, DOCVQA_INITIAL_SKILL } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

describe('training on the fixture split with the simulated model (SIMULATED: says nothing about a real model)', () => {
  it('starts from an initial skill that holds no rule the simulated target acts on', () => {
    const rules = readSkillRules(DOCVQA_INITIAL_SKILL);
    expect([...rules.fixes]).toEqual([]);
    expect([...rules.harms]).toEqual([]);
  });

  it('finishes a one-epoch run with test scores, sending every rollout its page image', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'env-docvqa-train-'));
    directories.push(directory);
    const config = coreConfigSchema.parse({
      model: { target: 'sim-target', optimizer: 'sim-optimizer', target_backend: 'sim', optimizer_backend: 'sim' },
      train: { num_epochs: 1, batch_size: 6 },
      env: { name: 'docvqa', split_mode: 'split_dir', split_dir: FIXTURE_SPLIT_DIR },
    });
    const environment = createEnvironment({ split_mode: 'split_dir', split_dir: FIXTURE_SPLIT_DIR });
    const backend = createBackend({ seed: 7 });
    backend.simulator.receiveTaskItems([
      ...(await environment.loadSplit('train')),
      ...(await environment.loadSplit('val')),
      ...(await environment.loadSplit('test')),
    ]);
    const target = createRecordingChatModel(backend.createChatModel({ role: 'target', modelId: 'sim-target' }));
    const events: RunEvent[] = [];
    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: target.model },
      optimizer: backend.createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }),
      runDirectory: path.join(directory, 'run'),
      onEvent: (event) => events.push(event),
    });

    expect(summary.environmentId).toBe('docvqa');
    expect(summary.splitSizes).toEqual({ train: 6, val: 3, test: 3 });
    expect(summary.excludedItems).toEqual([]);
    expect(summary.test).not.toBeNull();
    for (const scores of [summary.test!.initial, summary.test!.best]) {
      expect(scores.hard).not.toBeNull();
      expect(scores.hard).toBeGreaterThanOrEqual(0);
      expect(scores.hard).toBeLessThanOrEqual(1);
      expect(scores.soft).toBeGreaterThanOrEqual(scores.hard as number);
    }
    expect(events.at(-1)?.type).toBe('run-finished');

    // Every target request was a rollout whose user message carried the page as an image part.
    expect(target.requests.length).toBeGreaterThanOrEqual(12);
    for (const request of target.requests) {
      expect(request.purpose).toBe('rollout');
      const user = request.messages.find((message) => message.role === 'user');
      expect(Array.isArray(user?.content)).toBe(true);
      const parts = user!.content as Array<{ type: string; image?: string; mediaType?: string }>;
      expect(parts.map((part) => part.type)).toEqual(['text', 'image']);
      expect(parts[1]).toMatchObject({ mediaType: 'image/png', image: expect.stringMatching(/^data:image\/png;base64,iVBORw0KGgo/) });
    }
  });
});
