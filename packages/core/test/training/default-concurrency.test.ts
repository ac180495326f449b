import type { ChatModel, GenerateRequest, Target } from '@skillopt/contract';
import { rolloutConcurrencyOf } from '../../src/evaluation/rollout-concurrency';
import { train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

// A config that sets no rollout concurrency rolls out as many items at once as the target model
// declares it handles; a setting in the config wins over the declaration.
const runDirectory = temporaryRunDirectories('skillopt-default-concurrency-');

/** The scripted target declaring `declared` calls in flight, recording the most it saw at once. */
function countingTarget(declared: number | undefined) {
  const scripted = createScriptedTarget();
  let inFlight = 0;
  let peak = 0;
  const model: ChatModel = {
    ...scripted.model,
    ...(declared === undefined ? {} : { defaultConcurrency: declared }),
    async generate(request: GenerateRequest) {
      inFlight += 1;
      peak = Math.max(peak, inFlight);
      // Every call yields a few turns, so calls that may overlap do.
      for (let turn = 0; turn < 5; turn += 1) await new Promise((resolve) => setImmediate(resolve));
      inFlight -= 1;
      return scripted.model.generate(request);
    },
  };
  return { model, peak: () => peak };
}

async function peakWith(declared: number | undefined, run: { retries: number; rollout_concurrency?: number }) {
  const target = countingTarget(declared);
  await train({
    config: trainingConfig({ run }),
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model: target.model },
    optimizer: createScriptedOptimizer().model,
    runDirectory: runDirectory(),
  });
  return target.peak();
}

describe('rollouts in flight', () => {
  it("follow the target model's declared concurrency when the config sets none", async () => {
    expect(await peakWith(3, { retries: 1 })).toBe(3);
  });

  it('follow the config when it sets run.rollout_concurrency', async () => {
    expect(await peakWith(3, { retries: 1, rollout_concurrency: 2 })).toBe(2);
  });

  it('are 16 at most when neither says, and the env setting wins over every other', () => {
    const target = (declared?: number): Target => ({ kind: 'chat', model: countingTarget(declared).model });
    const config = trainingConfig({ run: { retries: 1 } });
    expect(rolloutConcurrencyOf(config, target())).toBe(16);
    expect(rolloutConcurrencyOf(config, target(64))).toBe(64);
    expect(rolloutConcurrencyOf({ ...config, env: { ...config.env, rollout_workers: 5 }, run: { ...config.run, rollout_concurrency: 2 } }, target(64))).toBe(5);
  });
});
