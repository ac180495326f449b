import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, manifest as simManifest } from '@skillopt/backends-sim';
import type { RunEvent, TaskItem } from '@skillopt/contract';
import { composeConfigSchema, environmentSectionFor, resolveConfig, train } from '@skillopt/core';
import { createRecordingChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, manifest } from '../src/index';
import { SPREADSHEETBENCH_TASKS } from '../../../testdata/paths';
import { realTaskRows, SYSTEM_PYTHON, writeSplit } from './helpers';

const DEFAULT_CONFIG_FILE = path.resolve(__dirname, '../../../configs/spreadsheetbench/default.yaml');
// Cell-level tasks with small workbooks, three cases each.
const SPLITS = {
  train: ['39180', '39490', '39604', '17251', '37609', '54057'],
  val: ['10452', '38985', '50811', '18645'],
  test: ['48799', '30468', '32255', '57105'],
};

let directory = '';
beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'env-spreadsheetbench-train-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('training on real SpreadsheetBench tasks with the simulated model', () => {
  it('lifts the score, every script run in the sandbox and scored by the evaluator', async () => {
    const rows = realTaskRows();
    const pick = (ids: readonly string[]) => ids.map((id) => rows.find((row) => String(row.id) === id));
    const splitDirectory = writeSplit({ train: pick(SPLITS.train), val: pick(SPLITS.val), test: pick(SPLITS.test) });
    const resolved = await resolveConfig({
      layers: [DEFAULT_CONFIG_FILE],
      overrides: [
        `env.split_dir=${splitDirectory}`,
        `env.data_root=${SPREADSHEETBENCH_TASKS}`,
        `env.python=${SYSTEM_PYTHON}`,
        'env.mode=single',
        'env.workers=2',
        'model.target_backend=sim',
        'model.optimizer_backend=sim',
        'model.target=sim-target',
        'model.optimizer=sim-optimizer',
        'backends.sim.seed=3',
        'backends.sim.noise=0',
        'train.num_epochs=3',
        'train.train_size=6',
        'train.batch_size=6',
        'optimizer.use_slow_update=false',
        'optimizer.use_meta_skill=false',
      ],
      schema: composeConfigSchema({ environment: manifest, backends: { sim: simManifest } }),
    });
    const { config } = resolved;
    expect(config.env).toMatchObject({ name: 'spreadsheetbench', sandbox: 'bubblewrap', mode: 'single' });

    const environment = createEnvironment(environmentSectionFor(config, manifest) as Parameters<typeof createEnvironment>[0]);
    const backend = createBackend(config.backends.sim as Parameters<typeof createBackend>[0]);
    const items: TaskItem[] = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    expect(items).toHaveLength(14);
    backend.simulator.receiveTaskItems(items);
    const target = createRecordingChatModel(backend.createChatModel({ role: 'target', modelId: config.model.target }));
    const optimizer = backend.createChatModel({ role: 'optimizer', modelId: config.model.optimizer });

    const events: RunEvent[] = [];
    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: target.model },
      optimizer,
      runDirectory: path.join(directory, 'run'),
      onEvent: (event) => events.push(event),
    });

    expect(summary.excludedItems).toEqual([]);
    expect(events.at(-1)?.type).toBe('run-finished');
    const test = summary.test!;
    // Measured with seed 3: validation 0.25 -> 1.0 at the accepted step, test hard 0 -> 0.5.
    const accepted = events.filter((event) => event.type === 'gate-decided' && event.accepted);
    expect(accepted.length).toBeGreaterThan(0);
    for (const decision of accepted) if (decision.type === 'gate-decided') expect(decision.candidateScore).toBeGreaterThan(decision.incumbentScore);
    for (const score of [test.initial, test.best]) expect(score).toMatchObject({ hard: expect.any(Number), soft: expect.any(Number), excluded: 0 });
    expect(test.best.hard as number).toBeGreaterThan(test.initial.hard as number);
    expect(test.best.soft as number).toBeGreaterThan(test.initial.soft as number);
    // Every script the target wrote was a Python block: the scores above came from running them.
    expect(target.replies.length).toBeGreaterThan(0);
    for (const reply of target.replies) expect(reply.text).toMatch(/^```python\n[\s\S]*openpyxl\.load_workbook\(INPUT_PATH[\s\S]*OUTPUT_PATH/m);
    const bestSkill = readFileSync(path.join(directory, 'run', 'best_skill.md'), 'utf8');
    expect(bestSkill).not.toBe(await environment.initialSkill());
    await environment.teardown?.();
  }, 600_000);
});
