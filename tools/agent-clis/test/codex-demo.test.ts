import { testWithAgentCli, type LocatedAgentCli } from './helpers/agent-cli-cache';
import { madeCalls, trainDemo, withSimServe, type DemoTraining } from './helpers/demo-training';

// Item 6 of issue 19: configs/features/codex-demo.yaml trains to the end against `skillopt sim
// serve`, with the real Codex CLI as the target agent (and, in the second run, as the optimizer
// too): the best skill's test accuracy above the initial's, the ledger holding the tokens Codex
// reported for every rollout it ran.

const TRAINING_TIMEOUT_MS = 240_000;

function codexTraining(codex: LocatedAgentCli, url: string, extra: readonly string[]): DemoTraining {
  return {
    config: 'configs/features/codex-demo.yaml',
    settings: [`backends.codex.path=${codex.binary}`, `backends.codex.base_url=${url}`, ...extra],
    environment: { CODEX_API_KEY: 'sim' },
    timeoutMs: TRAINING_TIMEOUT_MS,
  };
}

describe('the codex demo (configs/features/codex-demo.yaml) against sim serve', () => {
  testWithAgentCli(
    'codex',
    'trains with Codex as the target agent: the best skill beats the initial one on test, every rollout’s tokens as Codex reported them',
    async (codex) => {
      await withSimServe(async (url) => {
        const { summary, ledger } = await trainDemo(codexTraining(codex, url, []));
        expect(summary.test.best.hard).toBeGreaterThan(summary.test.initial.hard);
        expect(summary.test.best.excluded).toBe(0);
        const rollouts = madeCalls(ledger, 'target');
        expect(rollouts.length).toBeGreaterThanOrEqual(12);
        for (const rollout of rollouts) {
          expect(rollout.provider).toBe('codex');
          expect(rollout.usage?.estimated).toBeUndefined();
          expect(rollout.usage?.inputTokens).toBeGreaterThan(0);
        }
      });
    },
    TRAINING_TIMEOUT_MS + 60_000,
  );

  testWithAgentCli(
    'codex',
    'trains with Codex as the optimizer too: its calls in the ledger with the tokens it reported, and the best skill still beats the initial one',
    async (codex) => {
      await withSimServe(async (url) => {
        const { summary, ledger } = await trainDemo(codexTraining(codex, url, ['model.optimizer_backend=codex']));
        expect(summary.test.best.hard).toBeGreaterThan(summary.test.initial.hard);
        const optimizerCalls = madeCalls(ledger, 'optimizer');
        expect(optimizerCalls.length).toBeGreaterThanOrEqual(2);
        for (const call of optimizerCalls) {
          expect(call.provider).toBe('codex');
          expect(call.usage?.estimated).toBeUndefined();
        }
      });
    },
    TRAINING_TIMEOUT_MS + 60_000,
  );
});
