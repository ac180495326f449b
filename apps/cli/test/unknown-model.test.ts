import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startFaultInjectingServer, type FaultInjectingServer } from '@skillopt/backends-kit/testing';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { createEnvironment } from '@skillopt/env-searchqa';
import { runSkillopt } from './helpers/command-runner';

// A model id the provider does not know is a configuration error: the OpenAI backend gets the
// simulator's 404 model_not_found (through a proxy that counts what reaches it), does not retry
// it, and `skillopt train` exits 2 with the nearest model the server serves.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

describe('an unknown model', () => {
  let simulator: SimulatorServer;
  let proxy: FaultInjectingServer;
  let outputDirectory: string;
  beforeAll(async () => {
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    simulator = await createSimulatorServer({ port: 0, items });
    proxy = await startFaultInjectingServer({ upstream: simulator.origin });
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-unknown-model-'));
  });
  afterAll(async () => {
    await proxy.close();
    await simulator.close();
    rmSync(outputDirectory, { recursive: true, force: true });
  });

  it('is exit 2 naming the nearest served model, after one request and no retry', async () => {
    const { error } = await runSkillopt(
      [
        'train',
        '--config',
        'configs/features/openai-via-sim.yaml',
        '--set',
        `backends.openai.base_url=${proxy.url('/v1')}`,
        '--set',
        'model.target=sim-targt',
        '--set',
        'env.workers=1',
        '--out',
        path.join(outputDirectory, 'run'),
      ],
      repositoryRoot,
    );
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('has no model "sim-targt"');
    expect(error?.message).toContain('did you mean `sim-target`?');
    expect(error?.message).toContain('check model.target');
    // backends.openai.max_attempts is 3 in that config: a 404 is not worth a second attempt.
    const completions = proxy.requests.filter((request) => request.path.endsWith('/chat/completions'));
    expect(completions).toHaveLength(1);
    expect(completions[0]?.body.model).toBe('sim-targt');
  });
});
