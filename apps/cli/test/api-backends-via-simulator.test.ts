import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunLedger } from '@skillopt/core';
import { createSimulatorServer, type SimulatorServer } from '@skillopt/backends-sim';
import { createEnvironment } from '@skillopt/env-searchqa';
import { runSkillopt } from './helpers/command-runner';
import { readJsonLines } from './helpers/json-lines';

// The API backends end to end: `skillopt train` on the demo with target and optimizer on the
// OpenAI backend, then on the Anthropic backend, each through its real SDK to the simulator served
// on loopback (what `skillopt sim serve` runs). The backends are found by name from the
// repository root, whose package.json lists them as a user's project would.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

describe('the API backends against the simulator on loopback', () => {
  let server: SimulatorServer;
  let outputDirectory: string;
  beforeAll(async () => {
    const environment = await createEnvironment({ split_mode: 'split_dir', split_dir: path.join(repositoryRoot, 'datasets/demo') });
    const items = (await Promise.all((['train', 'val', 'test'] as const).map((split) => environment.loadSplit(split)))).flat();
    server = await createSimulatorServer({ port: 0, items });
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-api-backends-'));
    process.env.ANTHROPIC_API_KEY = 'not-a-real-key-the-simulator-checks-none';
  });
  afterAll(async () => {
    await server.close();
    rmSync(outputDirectory, { recursive: true, force: true });
    delete process.env.ANTHROPIC_API_KEY;
  });

  async function trainThrough(configFile: string, baseUrlKey: string, baseUrl: string, runName: string) {
    const runDirectory = path.join(outputDirectory, runName);
    const { stdout, error } = await runSkillopt(
      ['train', '--config', configFile, '--set', `${baseUrlKey}=${baseUrl}`, '--set', 'train.num_epochs=1', '--out', runDirectory, '--json'],
      repositoryRoot,
    );
    expect(error).toBeUndefined();
    const { events } = readJsonLines(stdout);
    const ledger = { entries: await readRunLedger(runDirectory) };
    return { events, ledger };
  }

  it('trains through the OpenAI backend, with the token counts the server reported', async () => {
    const { events, ledger } = await trainThrough('configs/features/openai-via-sim.yaml', 'backends.openai.base_url', server.url, 'openai');
    expect(events.at(-1)?.type).toBe('run-finished');
    for (const role of ['target', 'optimizer']) {
      // Rollouts served from the run's cache are ledger entries too (hits, with no usage): skip them.
      const calls = ledger.entries.filter((entry) => entry.role === role && entry.cacheHit !== true);
      expect(calls.length).toBeGreaterThan(0);
      // The config names base_url and no preset: an OpenAI-compatible server, reached with no key.
      expect(
        calls.every(
          (entry) => entry.provider === 'openai-compatible' && entry.usage !== undefined && entry.usage.inputTokens > 0 && entry.usage.estimated !== true,
        ),
      ).toBe(true);
    }
  });

  it('trains through the Anthropic backend, with prompt-cache reads reported', async () => {
    const { events, ledger } = await trainThrough('configs/features/anthropic-via-sim.yaml', 'backends.anthropic.base_url', server.origin, 'anthropic');
    expect(events.at(-1)?.type).toBe('run-finished');
    const targetCalls = ledger.entries.filter((entry) => entry.role === 'target' && entry.cacheHit !== true);
    expect(targetCalls.every((entry) => entry.provider === 'anthropic' && (entry.usage?.inputTokens ?? 0) > 0)).toBe(true);
    expect(targetCalls.some((entry) => (entry.usage?.cachedInputTokens ?? 0) > 0)).toBe(true);
  });
});
