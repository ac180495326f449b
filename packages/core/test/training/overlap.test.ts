import { messageText, type ChatModel, type GenerateRequest } from '@skillopt/contract';
import { train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

// Independent evaluations run together. A latch holds the target's calls of the chosen items until
// as many are in flight at once as only overlapping evaluations can put there, then lets every call
// through: were the evaluations run one after the other, the latch would never open.
const runDirectory = temporaryRunDirectories('skillopt-overlap-');

function latchedTarget(holds: (question: string) => boolean, opensAt: number) {
  const scripted = createScriptedTarget();
  const held: Array<{ question: string; release: () => void }> = [];
  let open = false;
  const model: ChatModel = {
    ...scripted.model,
    async generate(request: GenerateRequest) {
      const question = messageText(request.messages.at(-1)!);
      if (!open && holds(question)) {
        await new Promise<void>((release) => {
          held.push({ question, release });
          if (held.length >= opensAt) {
            open = true;
            for (const call of held) call.release();
          }
        });
      }
      return scripted.model.generate(request);
    },
  };
  return { model, heldQuestions: () => held.map((call) => call.question) };
}

async function trainWith(model: ChatModel) {
  // Enough rollouts in flight for every evaluation of a group at once.
  return train({
    config: trainingConfig({ run: { retries: 1, rollout_concurrency: 64 } }),
    environment: createArithmeticEnvironment(),
    target: { kind: 'chat', model },
    optimizer: createScriptedOptimizer().model,
    runDirectory: runDirectory(),
  });
}

describe('independent evaluations', () => {
  it("run the baseline and step 1's rollouts of the initial skill together", async () => {
    const environment = createArithmeticEnvironment();
    const validation = new Set((await environment.loadSplit('val')).map((item) => String(item.question)));
    const training = new Set((await environment.loadSplit('train')).map((item) => String(item.question)));
    // 8 validation items and a batch of 6: 14 calls in flight only if both evaluations are.
    const target = latchedTarget((question) => validation.has(question) || training.has(question), 14);
    const summary = await trainWith(target.model);
    const held = target.heldQuestions();
    expect(held.filter((question) => validation.has(question))).toHaveLength(8);
    expect(held.filter((question) => training.has(question))).toHaveLength(6);
    expect(summary.test?.best.hard).toBe(1);
  });

  it('run the test evaluations of the initial and the best skill together', async () => {
    const environment = createArithmeticEnvironment();
    const test = new Set((await environment.loadSplit('test')).map((item) => String(item.question)));
    // Test items are rolled out only by the final tests: 16 in flight means two skills at once.
    const target = latchedTarget((question) => test.has(question), 16);
    const summary = await trainWith(target.model);
    expect(target.heldQuestions()).toHaveLength(16);
    expect(summary.test?.initial.hard).toBeLessThan(1);
    expect(summary.test?.best.hard).toBe(1);
  });

  it("run an epoch's slow update and meta-skill syntheses together", async () => {
    // Epoch 2 of 3 has both stages (epoch 1 has no previous epoch, the last no later reader of the meta skill).
    const scripted = createScriptedOptimizer();
    const held: Array<() => void> = [];
    let open = false;
    const epochEndStage = (prompt: string) => prompt.startsWith('You write the slow-update') || prompt.startsWith('You keep the optimizer');
    const optimizer: ChatModel = {
      ...scripted.model,
      async generate(request: GenerateRequest) {
        if (!open && epochEndStage(messageText(request.messages.at(-1)!))) {
          await new Promise<void>((release) => {
            held.push(release);
            if (held.length >= 2) {
              open = true;
              for (const call of held) call();
            }
          });
        }
        return scripted.model.generate(request);
      },
    };
    const summary = await train({
      config: trainingConfig({ train: { num_epochs: 3, batch_size: 6, seed: 7 }, run: { retries: 1, rollout_concurrency: 64 } }),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: createScriptedTarget().model },
      optimizer,
      runDirectory: runDirectory(),
    });
    expect(held).toHaveLength(2);
    expect(summary.test?.best.hard).toBe(1);
  });
});
