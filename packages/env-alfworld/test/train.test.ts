import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, manifest as simManifest } from '@skillopt/backends-sim';
import { messageText, type RunEvent } from '@skillopt/contract';
import { composeConfigSchema, environmentSectionFor, resolveConfig, train } from '@skillopt/core';
import { createRecordingChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, manifest } from '../src/index';
import { DEFAULT_CONFIG_FILE, FAKE_ALFWORLD_OPTIONS, FIXTURE_DATA_ROOT, FIXTURE_SPLIT_DIR, DEBIAN_PYTHON } from './helpers';

// The test trains a whole run through the Python bridge, which a loaded machine slows many times
// over: the limit is there to catch a hang, not to time the run.
jest.setTimeout(300_000);

let directory = '';
beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'env-alfworld-train-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('training on the fixture games with the simulated model, through the bridge and the stand-in engine', () => {
  it('finishes a run of configs/alfworld/default.yaml and lifts the win rate on the held-out games', async () => {
    const resolved = await resolveConfig({
      layers: [DEFAULT_CONFIG_FILE],
      overrides: [
        `env.split_dir=${FIXTURE_SPLIT_DIR}`,
        `env.data_root=${FIXTURE_DATA_ROOT}`,
        `env.python=${DEBIAN_PYTHON}`,
        'env.max_steps=30',
        'env.workers=2',
        'model.target_backend=sim',
        'model.optimizer_backend=sim',
        'model.target=sim-target',
        'model.optimizer=sim-optimizer',
        'backends.sim.seed=3',
        'train.num_epochs=2',
        'train.batch_size=6',
      ],
      schema: composeConfigSchema({ environment: manifest, backends: { sim: simManifest } }),
    });
    const { config } = resolved;
    expect(config.env).toMatchObject({ name: 'alfworld', max_steps: 30, history_length: 2 });

    const environment = createEnvironment(environmentSectionFor(config, manifest) as Parameters<typeof createEnvironment>[0], FAKE_ALFWORLD_OPTIONS);
    const backend = createBackend(config.backends.sim as Parameters<typeof createBackend>[0]);
    const target = createRecordingChatModel(backend.createChatModel({ role: 'target', modelId: config.model.target }));
    const optimizer = backend.createChatModel({ role: 'optimizer', modelId: config.model.optimizer });

    const events: RunEvent[] = [];
    await environment.setup?.();
    let summary: Awaited<ReturnType<typeof train>>;
    try {
      summary = await train({
        config,
        environment,
        target: { kind: 'chat', model: target.model },
        optimizer,
        runDirectory: path.join(directory, 'run'),
        onEvent: (event) => events.push(event),
      });
    } finally {
      await environment.teardown?.();
    }

    expect(summary.environmentId).toBe('alfworld');
    expect(summary.splitSizes).toEqual({ train: 6, val: 6, test: 6 });
    expect(summary.excludedItems).toEqual([]);
    expect(events.at(-1)?.type).toBe('run-finished');
    const test = summary.test as NonNullable<typeof summary.test>;
    // The lift: the trained skill wins more held-out games than the initial one.
    expect(test.best.hard ?? 0).toBeGreaterThan(test.initial.hard ?? 1);
    expect((test.byTaskType ?? []).map((entry) => entry.taskType).sort()).toEqual([
      'look_at_obj_in_light',
      'pick_and_place',
      'pick_clean_then_place_in_recep',
      'pick_cool_then_place_in_recep',
      'pick_heat_then_place_in_recep',
      'pick_two_obj_and_place',
    ]);
    const bestSkill = readFileSync(path.join(directory, 'run', 'best_skill.md'), 'utf8');
    expect(bestSkill).not.toBe(await environment.initialSkill());

    // Every step was one chat call offering admissible actions, and every game's first step had no history.
    expect(target.requests.length).toBeGreaterThan(0);
    for (const request of target.requests) {
      expect(request.purpose).toBe('rollout');
      expect(messageText(request.messages[1] as never)).toMatch(/## Admissible actions\n\n- /);
    }
  });
});
