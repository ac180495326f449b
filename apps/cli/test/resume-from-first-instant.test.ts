import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readRunOverview } from '@skillopt/core';
import { runSkillopt } from './helpers/command-runner';
import { createSetupGate, killStartedProcesses, oneLine, type SetupGate, startSkillopt } from './helpers/cli-process';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { eventRunIds } from './helpers/run-events';

// Resumable from the first instant: a run writes its identity (run.json) and config.json before
// anything else, so a run killed at any instant after it started resumes, and a directory with
// nothing to resume says how to start a run instead of printing a resume command that cannot work.

let project: FixtureProject;
let gate: SetupGate;
let runDirectory: string;
beforeEach(() => {
  project = createFixtureProject();
  gate = createSetupGate();
  runDirectory = path.join(project.directory, 'run');
});
afterEach(() => {
  killStartedProcesses();
  gate.remove();
  project.remove();
});

describe('resuming from the first instant', () => {
  it('resumes a run killed with SIGKILL at its start, before its env was even set up', async () => {
    const train = startSkillopt(['train', '--config', 'train.yaml', '--out', 'run'], project.directory, gate.environment);
    // The env's setup is where the run is held: before this change config.json did not exist yet there.
    await gate.waitUntilReached(1);
    train.signal('SIGKILL');
    expect((await train.ended).code).toBeNull();
    expect(readdirSync(runDirectory).sort()).toEqual(['config.json', 'run.json', 'skillopt.lock']);
    const { runId } = JSON.parse(readFileSync(path.join(runDirectory, 'run.json'), 'utf8')) as { runId: string };

    gate.open();
    const resumed = await startSkillopt(['train', '--resume', 'run'], project.directory, gate.environment).ended;
    expect(resumed.code).toBe(0);
    // The killed run's lock was stale: its process is gone.
    expect(oneLine(resumed.stderr)).toContain(`took over the lock of ${runDirectory} left by pid ${train.pid}`);
    expect((await readRunOverview(runDirectory)).status).toBe('finished');
    expect(eventRunIds(runDirectory)).toEqual([runId]);
  });

  it('prints a resume command, when a run stops before its baseline, that resumes it', async () => {
    gate.open();
    const failed = await startSkillopt(['train', '--config', 'train.yaml', '--out', 'run', '--set', 'train.train_size=100'], project.directory).ended;
    expect(failed.code).toBe(2);
    expect(failed.stdout).toContain('Resume with: skillopt train --resume run');
    expect(existsSync(path.join(runDirectory, 'runtime_state.json'))).toBe(false);

    const resumed = await startSkillopt(['train', '--resume', 'run', '--set', 'train.train_size=0'], project.directory).ended;
    expect(resumed.code).toBe(0);
    expect((await readRunOverview(runDirectory)).status).toBe('finished');
    expect(eventRunIds(runDirectory)).toHaveLength(1);
  });

  it('says how to start a run, exit 2, when the directory holds nothing to resume', async () => {
    // Empty but for a stale lock: what a kill between taking the lock and writing run.json leaves.
    mkdirSync(runDirectory);
    const exitedPid = spawnSync(process.execPath, ['-e', '']).pid;
    writeFileSync(
      path.join(runDirectory, 'skillopt.lock'),
      JSON.stringify({
        lockId: 'gone',
        pid: exitedPid,
        hostname: os.hostname(),
        startedAt: '2026-01-02T03:04:05.000Z',
        command: 'skillopt train',
        purpose: 'training',
      }),
    );
    const empty = await runSkillopt(['train', '--resume', 'run'], project.directory);
    expect(empty.error?.oclif?.exit).toBe(2);
    expect(empty.error?.message).toBe(
      `There is nothing to resume in ${runDirectory}: no run was started there (it has no config.json). Start a run there with \`skillopt train --config <your config> --out ${runDirectory}\`.`,
    );
    expect(empty.stdout).not.toContain('Resume with');
    // The lock it took to look is released.
    expect(readdirSync(runDirectory)).toEqual([]);

    const missing = await runSkillopt(['train', '--resume', 'no-such-run'], project.directory);
    expect(missing.error?.oclif?.exit).toBe(2);
    expect(missing.error?.message).toContain(`There is nothing to resume in ${path.join(project.directory, 'no-such-run')}: it does not exist.`);
    expect(existsSync(path.join(project.directory, 'no-such-run'))).toBe(false);
  });
});
