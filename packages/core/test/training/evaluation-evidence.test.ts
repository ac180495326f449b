import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ERROR_CODES, type RunEvent } from '@skillopt/contract';
import { train } from '../../src/index';
import { createArithmeticEnvironment, createScriptedOptimizer, createScriptedTarget, trainingConfig } from './scripted-training-doubles';
import { temporaryRunDirectories } from './temporary-run-directories';

// Each test trains a run, which a loaded machine slows many times over: the limit is there to
// catch a hang, not to time the run.
jest.setTimeout(300_000);

// A run whose evaluations measured nothing must fail as a failure — exit 1 with its cause and the
// command that resumes — never finish with "0%".
const runDirectory = temporaryRunDirectories('skillopt-evidence-');

describe('a run whose evaluations measured nothing', () => {
  it('stops when every baseline item is excluded, names the cause and the resume command, and resumes once the provider is back', async () => {
    const directory = runDirectory();
    let down = true;
    const target = createScriptedTarget({ isDown: () => down });
    const events: RunEvent[] = [];
    const stopped = await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: target.model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      resumeCommand: 'skillopt train --resume run',
      onEvent: (event) => events.push(event),
    }).catch((error: unknown) => error);
    expect(stopped).toMatchObject({ code: ERROR_CODES.evaluationExcluded, category: 'provider' });
    // The baseline (8 items) and step 1's first batch (6) run together: whichever fails first is named.
    const message = (stopped as Error).message;
    expect(message).toMatch(
      /^(The baseline evaluation of the initial skill on the validation split excluded every one of its 8 items|A batch of training rollouts excluded every one of its 6 items)/,
    );
    expect(message).toMatch(/provider-connection: connect ECONNREFUSED 127\.0\.0\.1:9 \((8|6) items\)/);
    expect(message).toContain('resume with `skillopt train --resume run`');
    expect(events.at(-1)).toMatchObject({ type: 'run-stopped', reason: 'error', resumeCommand: 'skillopt train --resume run' });
    // Nothing was scored, so nothing claims a score.
    expect(existsSync(path.join(directory, 'summary.json'))).toBe(false);
    expect(events.some((event) => event.type === 'step-started')).toBe(false);

    down = false;
    const summary = await train({
      config: trainingConfig(),
      environment: createArithmeticEnvironment(),
      target: { kind: 'chat', model: target.model },
      optimizer: createScriptedOptimizer().model,
      runDirectory: directory,
      resume: true,
    });
    expect(summary.baseline.score).not.toBeNull();
    expect(summary.test?.best.hard).toBe(1);
  });

  it('stops when more than run.max_excluded_share of an evaluation is excluded, and not at that share or below', async () => {
    // One validation item of eight keeps failing: 12.5% excluded.
    const failing = new Set(['What is 21 plus 2?']);
    const run = (maxExcludedShare: number) =>
      train({
        config: trainingConfig({ run: { retries: 1, rollout_concurrency: 4, max_excluded_share: maxExcludedShare } }),
        environment: createArithmeticEnvironment(),
        target: { kind: 'chat', model: createScriptedTarget({ failingItemQuestions: failing }).model },
        optimizer: createScriptedOptimizer().model,
        runDirectory: runDirectory(),
      });
    await expect(run(0.1)).rejects.toMatchObject({
      code: ERROR_CODES.evaluationExcluded,
      message: expect.stringContaining('excluded 1 of its 8 items (13%, more than run.max_excluded_share = 0.1)'),
    });
    const summary = await run(0.125);
    expect(summary.excludedItems.length).toBeGreaterThan(0);
  });

  it('stops at the first training batch whose every rollout is excluded, with nothing committed for that step', async () => {
    const directory = runDirectory();
    const questions = new Set((await createArithmeticEnvironment().loadSplit('train')).map((item) => String(item.question)));
    await expect(
      train({
        config: trainingConfig(),
        environment: createArithmeticEnvironment(),
        target: { kind: 'chat', model: createScriptedTarget({ failingItemQuestions: questions }).model },
        optimizer: createScriptedOptimizer().model,
        runDirectory: directory,
      }),
    ).rejects.toMatchObject({
      code: ERROR_CODES.evaluationExcluded,
      message: expect.stringContaining('A batch of training rollouts excluded every one of its 6 items'),
    });
    expect(existsSync(path.join(directory, 'steps', 'step_0001', 'step_record.json'))).toBe(false);
    const history = path.join(directory, 'history.jsonl');
    expect(existsSync(history) ? readFileSync(history, 'utf8') : '').toBe('');
  });
});
