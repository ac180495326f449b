import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { runSkillopt } from './helpers/command-runner';

// The README's main command, end to end: the demo config, trained through the CLI on the
// simulated model. The bar: the best skill at least 25 points above the initial one on
// the test split, and the gate rejecting at least one harmful candidate.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

describe('the demo (README main command)', () => {
  let outputDirectory: string;
  beforeAll(() => {
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-demo-'));
  });
  afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }));

  it('lifts test accuracy by at least 25 points and the gate rejects a candidate', async () => {
    const { stdout, error } = await runSkillopt(
      ['train', '--config', 'configs/demo/default.yaml', '--out', path.join(outputDirectory, 'run'), '--json'],
      repositoryRoot,
    );
    expect(error).toBeUndefined();
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    const finished = events.find((event) => event.type === 'run-finished');
    if (finished?.type !== 'run-finished') throw new Error('the run did not finish');
    expect((finished.testScoreBest ?? 0) - (finished.testScoreInitial ?? 0)).toBeGreaterThanOrEqual(0.25);
    const rejections = events.filter((event) => event.type === 'gate-decided' && !event.accepted);
    expect(rejections.length).toBeGreaterThanOrEqual(1);
  });
});
