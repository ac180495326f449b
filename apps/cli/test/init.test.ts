import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { RunEvent } from '@skillopt/contract';
import { SEARCHQA_INITIAL_SKILL } from '@skillopt/env-searchqa';
import { runSkillopt } from './helpers/command-runner';

// `skillopt init`: a starter project from the CLI alone, and what it tells the user to run next
// really runs: `train` in that directory (no --config) trains it on the simulated model.
const repositoryRoot = path.resolve(__dirname, '..', '..', '..');
const STARTER_FILES = ['skillopt.config.yaml', 'data/train/items.json', 'data/val/items.json', 'data/test/items.json', 'skills/initial.md'];
const KEY_VARIABLES = ['OPENAI_API_KEY', 'TARGET_OPENAI_API_KEY', 'OPTIMIZER_OPENAI_API_KEY'];

describe('skillopt init', () => {
  let directory: string;
  beforeEach(() => {
    directory = mkdtempSync(path.join(os.tmpdir(), 'skillopt-init-'));
  });
  afterEach(() => rmSync(directory, { recursive: true, force: true }));

  it('writes a config, a SearchQA-format dataset and a skill, and a train of them with no --config succeeds on the simulated model', async () => {
    const init = await runSkillopt(['init'], directory);
    expect(init.error).toBeUndefined();
    for (const file of STARTER_FILES) expect(existsSync(path.join(directory, file))).toBe(true);
    // The next steps name a command that resolves to this package, never a bare `npx skillopt`.
    expect(init.stdout).toContain('npx @skillopt/cli train');
    expect(init.stdout).toContain('npx @skillopt/cli runs show <run directory>');
    expect(init.stdout).not.toMatch(/npx skillopt\b/);
    expect(readFileSync(path.join(directory, 'skills', 'initial.md'), 'utf8')).toBe(SEARCHQA_INITIAL_SKILL);
    // The first questions of the demo set, in its own format.
    for (const [split, count] of [
      ['train', 18],
      ['val', 12],
      ['test', 12],
    ] as const) {
      const written = JSON.parse(readFileSync(path.join(directory, 'data', split, 'items.json'), 'utf8')) as unknown[];
      const demo = JSON.parse(readFileSync(path.join(repositoryRoot, 'datasets', 'demo', split, 'items.json'), 'utf8')) as unknown[];
      expect(written).toEqual(demo.slice(0, count));
    }

    const train = await runSkillopt(['train', '--out', 'run', '--json'], directory);
    expect(train.error).toBeUndefined();
    const events = train.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as RunEvent);
    const finished = events.find((event) => event.type === 'run-finished');
    if (finished?.type !== 'run-finished') throw new Error('the run did not finish');
    expect(finished.testScoreBest ?? 0).toBeGreaterThan(finished.testScoreInitial ?? 1);
    expect(existsSync(path.join(directory, 'run', 'best_skill.md'))).toBe(true);
    const runConfig = JSON.parse(readFileSync(path.join(directory, 'run', 'config.json'), 'utf8')) as { env: { split_dir: string; skill_init: string } };
    expect(runConfig.env.split_dir).toBe(path.join(directory, 'data'));
    expect(runConfig.env.skill_init).toBe(path.join(directory, 'skills', 'initial.md'));
  });

  it('refuses to overwrite an existing file (exit 2, naming --force), writes nothing then, and replaces it with --force', async () => {
    writeFileSync(path.join(directory, 'skillopt.config.yaml'), 'mine: true\n');
    const refused = await runSkillopt(['init'], directory);
    expect(refused.error?.oclif?.exit).toBe(2);
    expect(refused.error?.message).toContain('skillopt.config.yaml');
    expect(refused.error?.message).toContain('--force');
    expect(readFileSync(path.join(directory, 'skillopt.config.yaml'), 'utf8')).toBe('mine: true\n');
    expect(existsSync(path.join(directory, 'data'))).toBe(false);

    const forced = await runSkillopt(['init', '--force'], directory);
    expect(forced.error).toBeUndefined();
    expect(readFileSync(path.join(directory, 'skillopt.config.yaml'), 'utf8')).toContain('target_backend: sim');
    for (const file of STARTER_FILES) expect(existsSync(path.join(directory, file))).toBe(true);
  });

  it('writes into a new directory named by its argument and says to cd there first', async () => {
    const { stdout, error } = await runSkillopt(['init', 'my-skill'], directory);
    expect(error).toBeUndefined();
    for (const file of STARTER_FILES) expect(existsSync(path.join(directory, 'my-skill', file))).toBe(true);
    expect(stdout).toContain('cd my-skill');
  });

  it('--backend openai writes a config that needs only the key it names', async () => {
    const saved = Object.fromEntries(KEY_VARIABLES.map((name) => [name, process.env[name]]));
    for (const name of KEY_VARIABLES) delete process.env[name];
    try {
      const init = await runSkillopt(['init', '--backend', 'openai'], directory);
      expect(init.error).toBeUndefined();
      expect(init.stdout).toContain('npm install @skillopt/backends-openai');
      expect(init.stdout).toContain('export OPENAI_API_KEY=');
      const config = readFileSync(path.join(directory, 'skillopt.config.yaml'), 'utf8');
      expect(config).toContain('target: gpt-4.1-mini');
      expect(config).toContain('target_backend: openai');
      // Everything but the key resolves and validates; the one error is the missing key.
      const train = await runSkillopt(['train', '--out', 'run'], directory);
      expect(train.error?.oclif?.exit).toBe(2);
      expect(train.error?.message).toContain('OPENAI_API_KEY');
      expect(existsSync(path.join(directory, 'run', 'events.jsonl'))).toBe(false);
    } finally {
      for (const [name, value] of Object.entries(saved)) if (value !== undefined) process.env[name] = value;
    }
  });
});
