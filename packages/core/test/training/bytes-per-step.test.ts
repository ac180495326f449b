import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';

// The test trains two runs, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the runs.
jest.setTimeout(300_000);

// Nothing that grows with a run is rewritten in full at every step: a step of an 80-step run
// writes as many bytes as the same step of a 20-step run. Measured as the bytes this process
// wrote (Linux's /proc/self/io `wchar`: every write(2), run-directory files included) between
// consecutive step-finished events, over the last steps of each run, once the run has settled
// into identical steps (the good rule accepted, every rollout served from the cache).
const directories: string[] = [];
afterAll(() => {
  for (const directory of directories) rmSync(directory, { recursive: true, force: true });
});

function bytesWrittenSoFar(): number {
  const line = readFileSync('/proc/self/io', 'utf8')
    .split('\n')
    .find((entry) => entry.startsWith('wchar:'));
  return Number(line?.split(':')[1]);
}

async function bytesPerStepAtTheEnd(epochs: number, steps: number): Promise<number> {
  const directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-bytes-'));
  directories.push(directory);
  const written: number[] = [];
  await train({
    config: trainingConfig({
      train: { num_epochs: epochs, batch_size: 1, train_size: 10, seed: 7 },
      optimizer: { learning_rate: 2, min_learning_rate: 1, slow_update_samples: 4, use_slow_update: false, use_meta_skill: false },
      evaluation: { eval_test: false },
    }),
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model: createScriptedTarget().model },
    optimizer: createScriptedOptimizer().model,
    runDirectory: path.join(directory, 'run'),
    onEvent: (event) => {
      if (event.type === 'step-finished') written.push(bytesWrittenSoFar());
    },
  });
  const window = written.slice(-(steps + 1));
  return (window.at(-1)! - window[0]!) / steps;
}

(process.platform === 'linux' ? describe : describe.skip)('bytes written per step', () => {
  it('are the same, within 10%, for the last steps of a 20-step and an 80-step run', async () => {
    const short = await bytesPerStepAtTheEnd(2, 8);
    const long = await bytesPerStepAtTheEnd(8, 8);
    expect(short).toBeGreaterThan(0);
    expect(Math.abs(long - short) / short).toBeLessThan(0.1);
  });
});
