import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createRateLimiterRegistry } from '@skillopt/backends-kit';
import { createBackend as createSimBackend, manifest as simManifest } from '@skillopt/backends-sim';
import { backendSectionFor, composeConfigSchema, environmentSectionFor, resolveConfig, train } from '@skillopt/core';
import { createEnvironment, manifest as searchQaManifest } from '@skillopt/env-searchqa';
import { createBackend, manifest, priceTable } from '../src/index';
import { startRecordingModel } from './recording-model';
import { installSimCursorAgent } from './sim-cursor-agent';

// Item 4 of issue 20 for Cursor: configs/features/cursor-demo.yaml trains to the end with Cursor as
// the target agent — a stand-in cursor-agent playing Cursor's protocol, its model `sim serve` on
// loopback — the best skill's test accuracy above the initial's, and the ledger holding, for every
// rollout, the tokens the CLI reported, which sum to what the simulated model served.

const repository = path.resolve(__dirname, '..', '..', '..');
const DEMO_CONFIG = path.join(repository, 'configs', 'features', 'cursor-demo.yaml');

interface LedgerLine {
  line: string;
  sequence: number;
  role?: string;
  provider?: string;
  usage?: { inputTokens: number; outputTokens: number; estimated?: boolean };
}

let root: string;
beforeAll(async () => {
  root = await realpath(await mkdtemp(path.join(tmpdir(), 'cursor-demo-')));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('the cursor demo (configs/features/cursor-demo.yaml) on a stand-in cursor-agent and sim serve', () => {
  it('trains with Cursor as the target agent: the best skill beats the initial one on test, every rollout’s tokens as the CLI reported them', async () => {
    const schema = composeConfigSchema({ environment: searchQaManifest, backends: { cursor: manifest, sim: simManifest } });
    const { config } = await resolveConfig({ layers: [DEMO_CONFIG], schema, workingDirectory: repository });
    const environment = createEnvironment(environmentSectionFor(config, searchQaManifest) as Parameters<typeof createEnvironment>[0]);
    const [trainItems, valItems, testItems] = await Promise.all([environment.loadSplit('train'), environment.loadSplit('val'), environment.loadSplit('test')]);
    const items = [...trainItems, ...valItems, ...testItems];
    const model = await startRecordingModel(items);
    try {
      const command = await installSimCursorAgent(root, model.url);
      const cursor = createBackend(
        { ...(backendSectionFor(config, manifest) as object), path: command },
        { environment: { CURSOR_API_KEY: 'sim' }, rateLimiters: createRateLimiterRegistry() },
      );
      const simulator = createSimBackend(backendSectionFor(config, simManifest) as Parameters<typeof createSimBackend>[0]);
      await simulator.simulator.receiveTaskItems(items);
      const runDirectory = path.join(root, 'run');
      const summary = await train({
        config,
        environment,
        target: { kind: 'agent', runner: cursor.createAgentRunner({ role: 'target', modelId: config.model.target }) },
        optimizer: simulator.createChatModel({ role: 'optimizer', modelId: config.model.optimizer }),
        runDirectory,
        priceTable,
      });

      expect(summary.splitSizes).toEqual({ train: 12, val: 6, test: 6 });
      expect(summary.test?.best.hard).toBeGreaterThan(summary.test?.initial.hard ?? 1);
      expect(summary.test?.best.excluded).toBe(0);

      const ledger = (await readFile(path.join(runDirectory, 'ledger.jsonl'), 'utf8'))
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as LedgerLine);
      const finished = new Map(ledger.filter((line) => line.line === 'call-finished').map((line) => [line.sequence, line]));
      const rollouts = ledger.filter((line) => line.line === 'call-started' && line.role === 'target').map((line) => finished.get(line.sequence));
      expect(rollouts.length).toBeGreaterThanOrEqual(12);
      for (const rollout of rollouts) {
        expect(rollout?.usage?.estimated).toBeUndefined();
        expect(rollout?.usage?.inputTokens).toBeGreaterThan(0);
      }
      expect(ledger.filter((line) => line.line === 'call-started' && line.role === 'target').every((line) => line.provider === 'cursor')).toBe(true);
      const served = model.exchanges.reduce(
        (sum, exchange) => sum + (exchange.response.usage?.prompt_tokens ?? 0) + (exchange.response.usage?.completion_tokens ?? 0),
        0,
      );
      const reported = rollouts.reduce((sum, rollout) => sum + (rollout?.usage?.inputTokens ?? 0) + (rollout?.usage?.outputTokens ?? 0), 0);
      expect(reported).toBe(served);
    } finally {
      await model.close();
    }
  }, 240_000);
});
