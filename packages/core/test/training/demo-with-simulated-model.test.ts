import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as simulatedBackend from '@skillopt/backends-sim';
import * as searchQa from '@skillopt/env-searchqa';
import { backendSectionFor, composeConfigSchema, environmentSectionFor, resolveConfig, train } from '../../src/index';

// The embedded default end to end, in process: the demo config, the searchqa env on the demo
// questions, and the simulated model as target and optimizer, through the real optimizer and gate.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..', '..');

describe('the demo on the simulated model', () => {
  let directory: string;
  beforeAll(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-demo-'));
  });
  afterAll(() => rmSync(directory, { recursive: true, force: true }));

  it('lifts test accuracy by at least 25 points and rejects at least one harmful candidate', async () => {
    const schema = composeConfigSchema({ environment: searchQa.manifest, backends: { sim: simulatedBackend.manifest } });
    const { config } = await resolveConfig({ layers: [path.join(repositoryRoot, 'configs/demo/default.yaml')], overrides: [], schema, workingDirectory: repositoryRoot });
    const environment = await searchQa.createEnvironment(environmentSectionFor(config, searchQa.manifest) as never);
    const backend = await simulatedBackend.createBackend(backendSectionFor(config, simulatedBackend.manifest) as never);
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    await backend.receiveTaskItems?.(items);
    const summary = await train({
      config,
      environment,
      target: { kind: 'chat', model: backend.createChatModel!({ role: 'target', modelId: config.model.target }) },
      optimizer: backend.createChatModel!({ role: 'optimizer', modelId: config.model.optimizer }),
      runDirectory: path.join(directory, 'run'),
    });
    expect(summary.test).not.toBeNull();
    const lift = (summary.test?.best.hard ?? 0) - (summary.test?.initial.hard ?? 0);
    expect(lift).toBeGreaterThanOrEqual(0.25);
    expect(summary.rejectedCandidates).toBeGreaterThanOrEqual(1);
    expect(readFileSync(path.join(directory, 'run', 'best_skill.md'), 'utf8').length).toBeGreaterThan(0);
    expect(summary.targetModel).toContain('sim');
  });
});
