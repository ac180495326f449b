import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { runSkillopt } from './helpers/command-runner';

// The README's main command, end to end: the demo config, trained through the CLI on the
// simulated model. The bar: the best skill at least 25 points above the initial one on
// the test split, and the gate rejecting at least one harmful candidate. Then `skillopt demo`, the
// same demo as shipped in the package, from a directory that is not the repository.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const cliRoot = path.resolve(__dirname, '..');
const DEMO_ASSETS = [
  'configs/_base_/default.yaml',
  'configs/demo/default.yaml',
  'datasets/demo/README.md',
  'datasets/demo/train/items.json',
  'datasets/demo/val/items.json',
  'datasets/demo/test/items.json',
];

function runFinishedOf(stdout: string) {
  const finished = stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as RunEvent)
    .find((event) => event.type === 'run-finished');
  if (finished?.type !== 'run-finished') throw new Error('the run did not finish');
  return finished;
}

describe('the demo (README main command)', () => {
  let outputDirectory: string;
  let repositoryRun: Awaited<ReturnType<typeof runSkillopt>>;
  beforeAll(async () => {
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-demo-'));
    repositoryRun = await runSkillopt(['train', '--config', 'configs/demo/default.yaml', '--out', path.join(outputDirectory, 'run'), '--json'], repositoryRoot);
  });
  afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }));

  it('lifts test accuracy by at least 25 points and the gate rejects a candidate', () => {
    expect(repositoryRun.error).toBeUndefined();
    const finished = runFinishedOf(repositoryRun.stdout);
    expect((finished.testScoreBest ?? 0) - (finished.testScoreInitial ?? 0)).toBeGreaterThanOrEqual(0.25);
    const rejections = repositoryRun.stdout.split('\n').filter((line) => line.includes('"gate-decided"') && line.includes('"accepted":false'));
    expect(rejections.length).toBeGreaterThanOrEqual(1);
  });

  it('ships in the package as a byte-for-byte copy of the repository files', () => {
    for (const asset of DEMO_ASSETS) expect(readFileSync(path.join(cliRoot, 'dist', 'demo', asset))).toEqual(readFileSync(path.join(repositoryRoot, asset)));
  });

  it('skillopt demo trains the shipped demo into the working directory outside the repository, ignoring a project config there: same figures, same best skill', async () => {
    const elsewhere = mkdtempSync(path.join(os.tmpdir(), 'skillopt-demo-elsewhere-'));
    try {
      writeFileSync(path.join(elsewhere, 'skillopt.config.yaml'), 'train:\n  num_epochs: 1\n');
      const { stdout, error } = await runSkillopt(['demo', '--json'], elsewhere);
      expect(error).toBeUndefined();
      const finished = runFinishedOf(stdout);
      const expected = runFinishedOf(repositoryRun.stdout);
      // The README's figures: validation 16.7% → 96.7%, test 25.0% → 94.4%.
      expect([finished.baselineScore, finished.bestScore, finished.testScoreInitial, finished.testScoreBest]).toEqual([
        expected.baselineScore,
        expected.bestScore,
        expected.testScoreInitial,
        expected.testScoreBest,
      ]);
      expect(finished.baselineScore).toBeCloseTo(5 / 30, 6);
      expect(finished.bestScore).toBeCloseTo(29 / 30, 6);
      expect(finished.testScoreInitial).toBeCloseTo(9 / 36, 6);
      expect(finished.testScoreBest).toBeCloseTo(34 / 36, 6);
      const runs = readdirSync(path.join(elsewhere, 'outputs'));
      expect(runs).toHaveLength(1);
      expect(readFileSync(path.join(elsewhere, 'outputs', runs[0]!, 'best_skill.md'), 'utf8')).toBe(
        readFileSync(path.join(outputDirectory, 'run', 'best_skill.md'), 'utf8'),
      );
    } finally {
      rmSync(elsewhere, { recursive: true, force: true });
    }
  });
});
