import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend, manifest as simManifest } from '@skillopt/backends-sim';
import type { RunEvent, TaskItem } from '@skillopt/contract';
import { composeConfigSchema, environmentSectionFor, resolveConfig, train } from '@skillopt/core';
import { createRecordingChatModel } from '@skillopt/env-kit/testing';
import { createEnvironment, manifest } from '../src/index';
import { DEFAULT_CONFIG_FILE } from './helpers';

let directory = '';
beforeAll(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'env-officeqa-train-'));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

describe('training on the fixture with the simulated model', () => {
  it('finishes a run of configs/officeqa/default.yaml, with tools called before each answer', async () => {
    const resolved = await resolveConfig({
      layers: [DEFAULT_CONFIG_FILE],
      overrides: [
        'model.target_backend=sim',
        'model.optimizer_backend=sim',
        'model.target=sim-target',
        'model.optimizer=sim-optimizer',
        'backends.sim.seed=7',
        'train.num_epochs=1',
        'train.batch_size=3',
      ],
      schema: composeConfigSchema({ environment: manifest, backends: { sim: simManifest } }),
    });
    const { config } = resolved;
    expect(config.env).toMatchObject({ name: 'officeqa', max_tool_turns: 24, split_dir: expect.stringMatching(/datasets[/\\]officeqa[/\\]fixture$/) });

    const environment = createEnvironment(environmentSectionFor(config, manifest) as Parameters<typeof createEnvironment>[0]);
    const backend = createBackend(config.backends.sim as Parameters<typeof createBackend>[0]);
    const items: TaskItem[] = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    expect(items).toHaveLength(12);
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

    expect(summary.environmentId).toBe('officeqa');
    expect(summary.splitSizes).toEqual({ train: 6, val: 3, test: 3 });
    expect(summary.test).not.toBeNull();
    for (const score of [summary.test!.initial, summary.test!.best]) {
      expect(score.hard).toBeGreaterThanOrEqual(0);
      expect(score.hard).toBeLessThanOrEqual(1);
    }
    expect(summary.excludedItems).toEqual([]);
    expect(events.at(-1)?.type).toBe('run-finished');
    expect(readFileSync(path.join(directory, 'run', 'best_skill.md'), 'utf8').length).toBeGreaterThan(0);

    // Every rollout call offered the tools; each answer came after at least one tool result.
    expect(target.requests.length).toBeGreaterThan(0);
    const answered = target.requests.filter((request) => request.messages.some((message) => message.role === 'tool'));
    const opening = target.requests.filter((request) => !request.messages.some((message) => message.role === 'tool'));
    for (const request of target.requests) {
      expect(request.purpose).toBe('rollout');
      expect(request.tools?.map((tool) => tool.name)).toEqual(['glob', 'read', 'grep']);
    }
    expect(answered.length).toBe(opening.length);
    const toolMessage = answered[0]!.messages.find((message) => message.role === 'tool')!;
    expect(toolMessage.content).toEqual([expect.objectContaining({ type: 'tool-result', toolName: 'glob' })]);
    const assistant = answered[0]!.messages.find((message) => message.role === 'assistant')!;
    expect(assistant.content).toEqual(expect.arrayContaining([expect.objectContaining({ type: 'tool-call', toolName: 'glob' })]));
  });
});
