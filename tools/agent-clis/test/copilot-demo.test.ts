import path from 'node:path';
import { testWithAgentCli } from './helpers/agent-cli-cache';
import { madeCalls, trainDemo, withSimServe } from './helpers/demo-training';

// Item 5 of issue 20: configs/features/copilot-demo.yaml trains to the end against `skillopt sim
// serve`, with the real Copilot CLI (BYOK, offline) as the target agent: the gate accepts a skill
// that beats the initial one on validation, the ledger holding the tokens of Copilot's usage report for every
// rollout it ran. Copilot runs from the package the installer unpacked (XDG_CACHE_HOME), and its
// key is long and odd, since Copilot masks the key's value wherever it appears in its output.

const TRAINING_TIMEOUT_MS = 240_000;

describe('the copilot demo (configs/features/copilot-demo.yaml) against sim serve', () => {
  testWithAgentCli(
    'copilot',
    'trains with Copilot as the target agent: the gate accepts a skill that beats the initial one on validation, every rollout’s tokens from its usage report',
    async (copilot) => {
      await withSimServe(async (url) => {
        const { summary, ledger } = await trainDemo({
          config: 'configs/features/copilot-demo.yaml',
          settings: [`backends.copilot.path=${copilot.binary}`, `backends.copilot.base_url=${url}`],
          environment: { XDG_CACHE_HOME: path.join(copilot.cacheHome, '.cache'), COPILOT_PROVIDER_API_KEY: 'loopback-copilot-demo-key-7d21' },
          timeoutMs: TRAINING_TIMEOUT_MS,
        });
        // Two test items are too few for the pass rate to move reliably; the gate's validation
        // score and the test's partial credit show the lift.
        expect(summary.acceptedCandidates).toBeGreaterThanOrEqual(1);
        expect(summary.best.score).toBeGreaterThan(summary.baseline.score);
        expect(summary.test.best.soft).toBeGreaterThanOrEqual(summary.test.initial.soft);
        expect(summary.test.best.excluded).toBe(0);
        const rollouts = madeCalls(ledger, 'target');
        expect(rollouts.length).toBeGreaterThanOrEqual(4);
        for (const rollout of rollouts) {
          expect(rollout.provider).toBe('copilot');
          expect(rollout.usage?.estimated).toBeUndefined();
          expect(rollout.usage?.inputTokens).toBeGreaterThan(0);
        }
      });
    },
    TRAINING_TIMEOUT_MS + 60_000,
  );
});
