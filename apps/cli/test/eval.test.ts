import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';
import { expectHelp } from './helpers/help-manifest';

const SKILL = '# Skill\n\nAnswer the question.\n\nEnd each response with the answer in an answer tag on its own last line.\n';

describe('skillopt eval', () => {
  let project: FixtureProject;
  beforeEach(() => {
    project = createFixtureProject();
    writeFileSync(path.join(project.directory, 'skill.md'), SKILL);
  });
  afterEach(() => project.remove());

  it('evaluates a skill on the test split and prints the scores and usage', async () => {
    const { stdout, error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'skill.md'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toContain('Evaluation on fixture, test split');
    expect(stdout).toContain('SIMULATED');
    expect(stdout).toMatch(/split\s+test \(6 items\)/);
    expect(stdout).toMatch(/items\s+6 scored, 0 excluded/);
    expect(stdout).toMatch(/hard score\s+\d+\.\d% \(pass rate\)/);
    expect(stdout).toMatch(/soft score\s+\d+\.\d% \(partial credit\)/);
    expect(stdout).toMatch(/target calls\s+6 calls/);
    // Evaluation makes no optimizer call.
    expect(stdout).not.toContain('optimizer calls');
  });

  it('prints the report as JSON with --json, on the split asked for', async () => {
    const { stdout, error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'skill.md', '--split', 'val', '--json'], project.directory);
    expect(error).toBeUndefined();
    const report = JSON.parse(stdout) as {
      environmentId: string;
      split: string;
      summary: { scoredCount: number; excludedCount: number; meanHard: number; meanSoft: number };
      items: Array<{ itemId: string; status: string }>;
      usage: { byRole: Record<string, { calls: number }> };
    };
    expect(report.environmentId).toBe('fixture');
    expect(report.split).toBe('val');
    expect(report.summary.scoredCount + report.summary.excludedCount).toBe(6);
    expect(report.items.map((item) => item.itemId).sort()).toEqual(['val-0', 'val-1', 'val-2', 'val-3', 'val-4', 'val-5']);
    expect(report.summary.meanHard).toBeGreaterThanOrEqual(0);
    expect(report.summary.meanHard).toBeLessThanOrEqual(1);
    expect(report.usage.byRole.target?.calls).toBe(6);
    expect(report.usage.byRole.optimizer).toBeUndefined();
  });

  it('honours the split limit of the config (evaluation.test_env_num)', async () => {
    const { stdout, error } = await runSkillopt(
      ['eval', '-c', 'train.yaml', '--skill', 'skill.md', '--set', 'evaluation.test_env_num=2', '--json'],
      project.directory,
    );
    expect(error).toBeUndefined();
    expect((JSON.parse(stdout) as { items: unknown[] }).items).toHaveLength(2);
  });

  it('exits 2 with a clear message when the skill file does not exist', async () => {
    const { error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'missing.md'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('missing.md');
    expect(error?.message).toContain('does not exist');
  });

  it('exits 2 for an empty skill file', async () => {
    writeFileSync(path.join(project.directory, 'empty.md'), '  \n');
    const { error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'empty.md'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('empty');
  });

  it('exits 2 for a split that does not exist', async () => {
    const { error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'skill.md', '--split', 'dev'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toMatch(/test, val, train/);
  });

  it('exits 2 without --skill, and for an unknown flag', async () => {
    const missing = await runSkillopt(['eval', '--config', 'train.yaml'], project.directory);
    expect(missing.error?.oclif?.exit).toBe(2);
    expect(missing.error?.message).toMatch(/skill/);
    const unknown = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'skill.md', '--bogus'], project.directory);
    expect(unknown.error?.oclif?.exit).toBe(2);
  });

  it('exits 2 for a config error, as train does', async () => {
    const { error } = await runSkillopt(['eval', '--config', 'train.yaml', '--skill', 'skill.md', '--set', 'train.num_epoch=2'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('num_epochs');
  });

  it('has a summary, a description and examples for --help', () => {
    expectHelp('eval', ['skill', 'split', 'json', 'config', 'set']);
  });
});
