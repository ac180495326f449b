import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createBackend } from '@skillopt/backends-sim';
import { checkTargetCapabilities, coreConfigSchema, train } from '@skillopt/core';
import { createScriptedAgentRunner } from '@skillopt/env-kit/testing';
import { createEnvironment } from '../src/index';
import { FIXTURE_SPLIT_DIR } from './helpers';

const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function runnerThatReadsImages(images: boolean) {
  return createScriptedAgentRunner({ modelId: images ? 'seeing-agent' : 'text-only-agent', reply: () => '<answer>x</answer>' });
}

describe("an agent runner without the images capability (through the contract's requiredCapabilities)", () => {
  const environment = createEnvironment({ split_dir: FIXTURE_SPLIT_DIR });

  it('is refused with the runner named and the remedy, and one that can or does not say is accepted', () => {
    const textOnly = { ...runnerThatReadsImages(false), capabilities: { images: false, tools: true } };
    expect(() => checkTargetCapabilities(environment, { kind: 'agent', runner: textOnly })).toThrow(
      /the env "docvqa" needs a target that can do images, and test-double\/text-only-agent declares it cannot do images; choose another model\.target or model\.target_backend/,
    );
    expect(() =>
      checkTargetCapabilities(environment, { kind: 'agent', runner: { ...runnerThatReadsImages(true), capabilities: { images: true } } }),
    ).not.toThrow();
    expect(() => checkTargetCapabilities(environment, { kind: 'agent', runner: runnerThatReadsImages(true) })).not.toThrow();
  });

  it('stops a training run before it starts: no agent run, no rollout written', async () => {
    const directory = mkdtempSync(path.join(os.tmpdir(), 'env-docvqa-agent-images-'));
    directories.push(directory);
    const textOnly = runnerThatReadsImages(false);
    const config = coreConfigSchema.parse({
      model: { target: 'text-only-agent', optimizer: 'sim-optimizer', target_backend: 'sim', optimizer_backend: 'sim' },
      train: { num_epochs: 1, batch_size: 2 },
      env: { name: 'docvqa', split_mode: 'split_dir', split_dir: FIXTURE_SPLIT_DIR },
    });
    const runDirectory = path.join(directory, 'run');
    await expect(
      train({
        config,
        environment,
        target: { kind: 'agent', runner: { ...textOnly, capabilities: { images: false } } },
        optimizer: createBackend({ seed: 7 }).createChatModel({ role: 'optimizer', modelId: 'sim-optimizer' }),
        runDirectory,
      }),
    ).rejects.toMatchObject({ code: 'config-invalid', category: 'user' });
    expect(textOnly.calls).toHaveLength(0);
    const written = readdirSync(directory).includes('run') ? readdirSync(runDirectory) : [];
    expect(written).not.toContain('rollouts');
  });
});
