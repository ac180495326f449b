import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHardWorld, hardWorldSettings } from '@skillopt/backends-sim';
import type { TaskItem } from '@skillopt/contract';
import { runSkillopt } from './helpers/command-runner';

// configs/demo/hard.yaml through the CLI: the hard world of the simulated model on the generated
// split. A run there lifts the skill, but its best stays under the oracle of the world — the best
// expected test score any skill can reach — which itself is well under 100 %.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');

function splitItems(split: string): TaskItem[] {
  const raw = JSON.parse(readFileSync(path.join(repositoryRoot, 'datasets', 'demo-hard', split, 'items.json'), 'utf8')) as Array<{
    id: string;
    question: string;
    answers: string[];
    answer_type: string;
  }>;
  return raw.map((item) => ({ id: item.id, taskType: 'qa', question: item.question, references: item.answers, answer_type: item.answer_type }));
}

describe('the hard world (configs/demo/hard.yaml)', () => {
  let outputDirectory: string;
  beforeAll(() => {
    outputDirectory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-hard-world-'));
  });
  afterAll(() => rmSync(outputDirectory, { recursive: true, force: true }));

  it('trains a skill that gains on test but stays under the world’s oracle, which is under 100 %', async () => {
    const run = path.join(outputDirectory, 'run');
    const { error } = await runSkillopt(['train', '--config', 'configs/demo/hard.yaml', '--out', run, '--json'], repositoryRoot);
    expect(error).toBeUndefined();
    const [train, val, test] = ['train', 'val', 'test'].map(splitItems) as [TaskItem[], TaskItem[], TaskItem[]];
    const config = JSON.parse(readFileSync(path.join(run, 'config.json'), 'utf8')) as { backends: { sim: Record<string, unknown> } };
    expect(config.backends.sim.world).toBe('hard');
    const world = createHardWorld(hardWorldSettings(config.backends.sim), [...train, ...val, ...test], { splits: { train, val, test } });
    const initial = readFileSync(path.join(run, 'skills', 'skill_v0000.md'), 'utf8');
    const best = readFileSync(path.join(run, 'best_skill.md'), 'utf8');
    const oracle = world.oracle(test, initial);
    const initialScore = world.expectedScore(test, initial);
    const bestScore = world.expectedScore(test, best);
    expect(oracle.score).toBeLessThan(0.9);
    expect(bestScore).toBeGreaterThan(initialScore);
    expect(bestScore).toBeLessThanOrEqual(oracle.score);
    // The world's conflict: the oracle keeps at most one of the two person-name rules.
    expect(oracle.conceptIds.filter((id) => id === 'surname-only' || id === 'full-names').length).toBeLessThanOrEqual(1);
  });
});
