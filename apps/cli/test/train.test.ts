import { spawn } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createFixtureProject, defaultConfig, type FixtureProject } from './helpers/fixture-project';
import { runSkillopt } from './helpers/command-runner';
import { readJsonLines } from './helpers/json-lines';

describe('skillopt train', () => {
  let project: FixtureProject;
  beforeEach(() => {
    project = createFixtureProject();
  });
  afterEach(() => project.remove());

  it('trains on a fixture env package with the simulated model and prints the summary', async () => {
    const { stdout, error } = await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toContain('Training on fixture');
    expect(stdout).toMatch(
      /Estimate: at most about \d+ optimizer calls and \d+ target episodes .*a critical path of at most about \d+ latency slots, about \d+ (s|min) for each second a call takes/,
    );
    expect(stdout).toMatch(/sequential waves\s+\d+, \d+ latency slots/);
    expect(stdout).toContain('SIMULATED model');
    expect(stdout).toMatch(/validation score\s+\S+ → \S+/);
    expect(existsSync(path.join(project.directory, 'run', 'best_skill.md'))).toBe(true);
  });

  it('prints only JSON lines with --json', async () => {
    const { stdout, error } = await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run', '--json'], project.directory);
    expect(error).toBeUndefined();
    const { events, final } = readJsonLines(stdout);
    expect(events[0]?.type).toBe('run-started');
    expect(events.at(-1)?.type).toBe('run-finished');
    expect(final.type).toBe('result');
  });

  it('suggests the nearest key for a misspelt one and exits 2', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('num_epochs', 'num_epoch'));
    const { error } = await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('num_epochs');
  });

  it('suggests the installed env a misspelt name is near, and exits 2', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('name: fixture', 'name: searchqaa'));
    const { error } = await runSkillopt(['train', '--config', 'train.yaml'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    // @skillopt/env-searchqa is installed beside the CLI: no npm install, least of all of a package that does not exist.
    expect(error?.message).toContain('Did you mean "searchqa"? It is installed (@skillopt/env-searchqa).');
    expect(error?.message).not.toContain('npm install');
  });

  it('words the npm install of an env name near nothing as a guess about a third-party package', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('name: fixture', 'name: nosuchbench'));
    const { error } = await runSkillopt(['train', '--config', 'train.yaml'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain(
      'If it is a third-party package, install it in your project under its published name, e.g. npm install skillopt-env-nosuchbench',
    );
    expect(error?.message).not.toContain('npm install @skillopt/env-nosuchbench');
  });

  it('refuses optimizer.mode agent with an optimizer backend that runs no agents, naming what to set, and exits 2', async () => {
    const { error } = await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run', '--set', 'optimizer.mode=agent'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('optimizer.mode is agent, but the backend "sim" runs no agents');
    expect(error?.message).toContain('model.optimizer_backend');
    expect(existsSync(path.join(project.directory, 'run'))).toBe(false);
  });

  it('gives the line and column of bad YAML', async () => {
    writeFileSync(project.configFile, 'train:\n  num_epochs: [1\nenv:\n  name: fixture\n');
    const { error } = await runSkillopt(['train', '--config', 'train.yaml'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toMatch(/train\.yaml:\d+:\d+/);
  });

  it('resumes a finished run without training it again', async () => {
    await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run'], project.directory);
    const runFiles = ['best_skill.md', 'events.jsonl', 'ledger.jsonl', 'history.jsonl', 'summary.json', 'runtime_state.json'];
    const before = runFiles.map((file) => readFileSync(path.join(project.directory, 'run', file), 'utf8'));
    const { stdout, error } = await runSkillopt(['train', '--resume', 'run'], project.directory);
    expect(error).toBeUndefined();
    expect(stdout).toContain('The run in run already finished: nothing is trained or paid for again.');
    expect(stdout).toMatch(/validation score/);
    // Nothing grows: no event, no ledger line, no history line.
    expect(runFiles.map((file) => readFileSync(path.join(project.directory, 'run', file), 'utf8'))).toEqual(before);
  });

  it('stops at a safe point on Ctrl-C, exits 130 and names the command that resumes', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('    seed: 3', '    seed: 3\n    latency_ms: 40'));
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'bin', 'run.js'), 'train', '--config', 'train.yaml', '--out', 'run'], {
      cwd: project.directory,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // Interrupt once training is under way.
      if (/step 1\/\d+/.test(output) && !child.killed) child.kill('SIGINT');
    });
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(exitCode).toBe(130);
    expect(output).toContain('skillopt train --resume run');

    const { error } = await runSkillopt(['train', '--resume', 'run'], project.directory);
    expect(error).toBeUndefined();
    expect(existsSync(path.join(project.directory, 'run', 'summary.json'))).toBe(true);
  });

  it('stops at a safe point on SIGTERM after the first step, exits 143 and names the command that resumes', async () => {
    writeFileSync(project.configFile, defaultConfig().replace('    seed: 3', '    seed: 3\n    latency_ms: 40'));
    const child = spawn(process.execPath, [path.join(__dirname, '..', 'bin', 'run.js'), 'train', '--config', 'train.yaml', '--out', 'run', '--json'], {
      cwd: project.directory,
      env: { ...process.env, NODE_OPTIONS: '' },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      if (stdout.includes('"type":"step-finished"') && !child.killed) child.kill('SIGTERM');
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exitCode = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(exitCode).toBe(143);
    expect(stderr).toContain('Stopping at a safe point');
    expect(stderr).toContain('terminated (SIGTERM)');
    const stopped = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { type: string; reason?: string; resumeCommand?: string })
      .find((event) => event.type === 'run-stopped');
    expect(stopped).toMatchObject({ reason: 'aborted', resumeCommand: 'skillopt train --resume run' });
    // The first step was committed before the stop: resuming starts after it and finishes.
    expect(
      readFileSync(path.join(project.directory, 'run', 'history.jsonl'), 'utf8')
        .trim()
        .split('\n').length,
    ).toBeGreaterThanOrEqual(1);
    const { error } = await runSkillopt(['train', '--resume', 'run'], project.directory);
    expect(error).toBeUndefined();
    expect(existsSync(path.join(project.directory, 'run', 'summary.json'))).toBe(true);
  });

  it('gives a clear error, exit 2, for a run whose config.json is damaged', async () => {
    await runSkillopt(['train', '--config', 'train.yaml', '--out', 'run'], project.directory);
    writeFileSync(path.join(project.directory, 'run', 'config.json'), '{"model": {');
    const { error } = await runSkillopt(['train', '--resume', 'run'], project.directory);
    expect(error?.oclif?.exit).toBe(2);
    expect(error?.message).toContain('config.json is not readable JSON');
  });
});
