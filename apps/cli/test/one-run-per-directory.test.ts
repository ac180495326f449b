import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createFixtureProject, type FixtureProject } from './helpers/fixture-project';
import { createSetupGate, killStartedProcesses, oneLine, type SetupGate, startSkillopt } from './helpers/cli-process';
import { runSkillopt } from './helpers/command-runner';
import { eventRunIds } from './helpers/run-events';

// One run per directory: every `train` takes the run directory's lock (core's acquireDirectoryLock)
// before it reads or writes the run. These tests start real CLI processes on one --out; the
// fixture env's setup gate holds the one that got the lock at the start of its run, so the others
// meet the lock deterministically, whatever the machine's speed.

const TRAIN = ['train', '--config', 'train.yaml', '--out', 'run'];

let project: FixtureProject;
let gate: SetupGate;
let runDirectory: string;
let lockFile: string;
beforeEach(() => {
  project = createFixtureProject();
  gate = createSetupGate();
  runDirectory = path.join(project.directory, 'run');
  lockFile = path.join(runDirectory, 'skillopt.lock');
});
afterEach(() => {
  killStartedProcesses();
  gate.remove();
  project.remove();
});

async function exitedProcessPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

function writeLock(holder: { pid: number; hostname: string }): string {
  const text = `${JSON.stringify({ lockId: 'earlier', startedAt: '2026-01-02T03:04:05.000Z', command: 'skillopt train --out run', purpose: 'training', ...holder })}\n`;
  mkdirSync(runDirectory, { recursive: true });
  writeFileSync(lockFile, text);
  return text;
}

describe('one run per directory', () => {
  it('runs exactly one of two trains started together on the same --out; the other exits 2 naming the holder', async () => {
    const first = startSkillopt(TRAIN, project.directory, gate.environment);
    const second = startSkillopt(TRAIN, project.directory, gate.environment);
    // The one without the lock ends on its own; the one with it waits at its setup gate.
    const refused = await Promise.race([
      first.ended.then((result) => ({ ...result, process: first })),
      second.ended.then((result) => ({ ...result, process: second })),
    ]);
    const holder = refused.process === first ? second : first;
    expect(refused.code).toBe(2);
    expect(await gate.waitUntilReached(1)).toEqual([holder.pid]);
    const message = oneLine(refused.stderr);
    expect(message).toContain(`is in use by another process: pid ${holder.pid} on host ${os.hostname()}, started 20`);
    expect(message).toContain('running `skillopt train --config train.yaml --out run` (training)');
    expect(message).toContain(`Wait for it to finish or stop it (kill ${holder.pid}), or use another directory`);

    // Readers take no lock and are not confused by it: the run in progress shows and lists, a folder with only a lock is no run.
    const { runId } = JSON.parse(readFileSync(path.join(runDirectory, 'run.json'), 'utf8')) as { runId: string };
    mkdirSync(path.join(project.directory, 'only-a-lock'));
    writeFileSync(path.join(project.directory, 'only-a-lock', 'skillopt.lock'), readFileSync(lockFile));
    const shown = await runSkillopt(['runs', 'show', 'run'], project.directory);
    expect(shown.error).toBeUndefined();
    expect(shown.stdout).toContain('Nothing committed yet');
    const listed = await runSkillopt(['runs', 'list', '--dir', '.', '--json'], project.directory);
    expect(listed.error).toBeUndefined();
    expect((JSON.parse(listed.stdout) as Array<{ name: string }>).map((run) => run.name)).toEqual(['run']);

    gate.open();
    const finished = await holder.ended;
    expect(finished.code).toBe(0);
    expect(gate.reached()).toEqual([holder.pid]);
    const runIds = eventRunIds(runDirectory);
    expect(runIds).toEqual([runId]);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('takes over a lock left by a process that no longer runs on this host', async () => {
    const deadPid = await exitedProcessPid();
    writeLock({ pid: deadPid, hostname: os.hostname() });
    gate.open();
    const result = await startSkillopt(TRAIN, project.directory, gate.environment).ended;
    expect(result.code).toBe(0);
    expect(oneLine(result.stderr)).toContain(`took over the lock of ${runDirectory} left by pid ${deadPid}`);
    expect(existsSync(path.join(runDirectory, 'summary.json'))).toBe(true);
    expect(existsSync(lockFile)).toBe(false);
  });

  it('hands a stale lock to exactly one of three trains started together', async () => {
    writeLock({ pid: await exitedProcessPid(), hostname: os.hostname() });
    const trains = [0, 1, 2].map(() => startSkillopt(TRAIN, project.directory, gate.environment));
    const ended = trains.map((train) => train.ended.then((result) => ({ ...result, pid: train.pid })));
    // Two end on their own, refused; the third holds the lock at its setup gate.
    const refused = await new Promise<Array<{ code: number | null; stderr: string; pid: number }>>((resolve) => {
      const done: Array<{ code: number | null; stderr: string; pid: number }> = [];
      for (const result of ended)
        void result.then((value) => {
          done.push(value);
          if (done.length === 2) resolve(done);
        });
    });
    const [holderPid] = await gate.waitUntilReached(1);
    expect(refused.map((result) => result.code)).toEqual([2, 2]);
    for (const result of refused) expect(oneLine(result.stderr)).toContain(`in use by another process: pid ${holderPid} on host`);
    gate.open();
    const holder = await ended.find((_, index) => trains[index]!.pid === holderPid)!;
    expect(holder.code).toBe(0);
    expect(gate.reached()).toEqual([holderPid]);
    expect(eventRunIds(runDirectory)).toHaveLength(1);
  });

  it('never takes over a lock from another host, and says how to remove it', async () => {
    const lock = writeLock({ pid: await exitedProcessPid(), hostname: 'build-agent-7.example' });
    const result = await startSkillopt(TRAIN, project.directory, gate.environment).ended;
    expect(result.code).toBe(2);
    const message = oneLine(result.stderr);
    expect(message).toContain('is in use by a process on another host');
    expect(message).toContain('on host build-agent-7.example, started 2026-01-02T03:04:05.000Z, running `skillopt train --out run`');
    expect(message).toContain(`remove ${lockFile} and run the command again`);
    // Nothing was written: the lock is as it was, and no run was started.
    expect(readFileSync(lockFile, 'utf8')).toBe(lock);
    expect(existsSync(path.join(runDirectory, 'config.json'))).toBe(false);
    expect(gate.reached()).toEqual([]);
  });

  it('releases the lock when Ctrl-C stops the run at a safe point', async () => {
    const train = startSkillopt(TRAIN, project.directory, gate.environment);
    await gate.waitUntilReached(1);
    expect(existsSync(lockFile)).toBe(true);
    train.signal('SIGINT');
    gate.open();
    const result = await train.ended;
    expect(result.code).toBe(130);
    expect(existsSync(lockFile)).toBe(false);
  });
});
