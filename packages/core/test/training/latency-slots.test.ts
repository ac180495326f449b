import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

// The run's critical path in call latencies: between its sequential waves (each at least one slot)
// and its calls (all one after another), fewer when more rollouts may be in flight, and kept in the
// run state so a resumed run continues it.
const runDirectory = temporaryRunDirectories('skillopt-latency-slots-');

async function trainAt(rolloutConcurrency: number) {
  const directory = runDirectory();
  const summary = await train({
    config: trainingConfig({ run: { retries: 1, rollout_concurrency: rolloutConcurrency } }),
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model: createScriptedTarget().model },
    optimizer: createScriptedOptimizer().model,
    runDirectory: directory,
  });
  return { summary, directory };
}

describe('latency slots', () => {
  it('lie between the sequential waves and the calls, and shrink as more rollouts may be in flight', async () => {
    const narrow = await trainAt(1);
    const wide = await trainAt(64);
    for (const { summary } of [narrow, wide]) {
      const calls = (summary.usage.byRole.target?.calls ?? 0) + (summary.usage.byRole.optimizer?.calls ?? 0);
      expect(summary.latencySlots).toBeGreaterThanOrEqual(summary.sequentialWaves);
      expect(summary.latencySlots).toBeLessThanOrEqual(calls);
    }
    // One rollout at a time: every target call is a slot of its own.
    expect(narrow.summary.latencySlots).toBeGreaterThanOrEqual(narrow.summary.rollouts.run);
    expect(wide.summary.latencySlots).toBeLessThan(narrow.summary.latencySlots!);
    expect(wide.summary.best.skillHash).toBe(narrow.summary.best.skillHash);
  });

  it('are kept in the run state with the other counters', async () => {
    const { summary, directory } = await trainAt(4);
    const state = JSON.parse(await readFile(path.join(directory, 'runtime_state.json'), 'utf8')) as {
      trainer: { counters: { latencySlots: { slots: number } } };
    };
    expect(state.trainer.counters.latencySlots.slots).toBeGreaterThan(0);
    expect(state.trainer.counters.latencySlots.slots).toBeLessThanOrEqual(summary.latencySlots!);
  });
});
