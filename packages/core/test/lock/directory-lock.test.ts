import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { SkillOptError } from '@skillopt/contract';
import {
  acquireDirectoryLock,
  DIRECTORY_LOCK_FILE,
  DIRECTORY_LOCKED_ERROR_CODE,
  type DirectoryLock,
  type DirectoryLockHolder,
  readDirectoryLock,
} from '../../src/lock/index';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(os.tmpdir(), 'skillopt-lock-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

/** The pid of a process that ran on this host and has exited: a holder that no longer runs. */
async function exitedProcessPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  await new Promise((resolve) => child.on('close', resolve));
  return child.pid!;
}

function holderFor(pid: number, overrides: Partial<DirectoryLockHolder> = {}): DirectoryLockHolder {
  return {
    lockId: `stale${pid}`,
    pid,
    hostname: os.hostname(),
    startedAt: '2026-01-02T03:04:05.000Z',
    command: 'skillopt train --out runs/old',
    purpose: 'training',
    ...overrides,
  };
}

async function writeLockFile(name: string, holder: DirectoryLockHolder): Promise<void> {
  await writeFile(path.join(directory, name), `${JSON.stringify(holder)}\n`);
}

async function refusal(promise: Promise<DirectoryLock>): Promise<SkillOptError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!SkillOptError.isInstance(error)) throw new Error(`expected a SkillOptError, got ${String(error)}`);
  return error;
}

describe('acquireDirectoryLock', () => {
  it('writes a lock file naming the pid, host, start time, command and purpose, and removes it on release', async () => {
    const lock = await acquireDirectoryLock(directory, { purpose: 'training', command: 'skillopt train --out run' });
    const onDisk = JSON.parse(await readFile(path.join(directory, DIRECTORY_LOCK_FILE), 'utf8')) as DirectoryLockHolder;
    expect(onDisk).toEqual({
      lockId: lock.holder.lockId,
      pid: process.pid,
      hostname: os.hostname(),
      startedAt: lock.holder.startedAt,
      command: 'skillopt train --out run',
      purpose: 'training',
    });
    expect(await readDirectoryLock(directory)).toEqual(onDisk);
    expect(lock.tookOverFrom).toBeUndefined();
    await lock.release();
    await lock.release();
    expect(await readdir(directory)).toEqual([]);
    expect(await readDirectoryLock(directory)).toBeUndefined();
  });

  it('refuses a second holder with an error that names the first', async () => {
    const first = await acquireDirectoryLock(directory, { purpose: 'training', command: 'skillopt train --out run' });
    const error = await refusal(acquireDirectoryLock(directory, { purpose: 'resuming training' }));
    expect(error.code).toBe(DIRECTORY_LOCKED_ERROR_CODE);
    expect(error.category).toBe('user');
    expect(error.message).toContain(`pid ${process.pid} on host ${os.hostname()}`);
    expect(error.message).toContain(`started ${first.holder.startedAt}`);
    expect(error.message).toContain('`skillopt train --out run` (training)');
    expect(error.message).toContain(`kill ${process.pid}`);
    await first.release();
    const second = await acquireDirectoryLock(directory, { purpose: 'resuming training' });
    expect((await readDirectoryLock(directory)) as DirectoryLockHolder).toMatchObject({ lockId: second.holder.lockId });
    await second.release();
  });

  it('lets exactly one of many concurrent acquirers win', async () => {
    const attempts = await Promise.allSettled(Array.from({ length: 8 }, (_, index) => acquireDirectoryLock(directory, { purpose: `acquirer ${index}` })));
    const winners = attempts.filter((attempt) => attempt.status === 'fulfilled');
    const refused = attempts.filter((attempt) => attempt.status === 'rejected');
    expect(winners).toHaveLength(1);
    expect(refused.map((attempt) => (attempt.reason as SkillOptError).code)).toEqual(Array(7).fill(DIRECTORY_LOCKED_ERROR_CODE));
    const winner = (winners[0] as PromiseFulfilledResult<DirectoryLock>).value;
    for (const attempt of refused) expect((attempt.reason as Error).message).toContain(`(${winner.holder.purpose})`);
    await winner.release();
  });

  it('takes over a lock whose process no longer runs on this host', async () => {
    const stale = holderFor(await exitedProcessPid());
    await writeLockFile(DIRECTORY_LOCK_FILE, stale);
    const lock = await acquireDirectoryLock(directory, { purpose: 'training' });
    expect(lock.tookOverFrom).toEqual(stale);
    expect((await readDirectoryLock(directory)) as DirectoryLockHolder).toMatchObject({ lockId: lock.holder.lockId, pid: process.pid });
    await lock.release();
  });

  it('hands a stale lock to exactly one of many acquirers that all found it stale', async () => {
    const stale = holderFor(await exitedProcessPid());
    await writeLockFile(DIRECTORY_LOCK_FILE, stale);
    // Staggered by a few event-loop turns, so some acquirers read the stale lock while others are already replacing it.
    const attempts = await Promise.allSettled(
      Array.from({ length: 12 }, async (_, index) => {
        for (let turn = 0; turn < index; turn += 1) await new Promise((resolve) => setImmediate(resolve));
        return acquireDirectoryLock(directory, { purpose: `acquirer ${index}` });
      }),
    );
    const winners = attempts.filter((attempt): attempt is PromiseFulfilledResult<DirectoryLock> => attempt.status === 'fulfilled');
    expect(winners).toHaveLength(1);
    const winner = winners[0]!.value;
    // The acquirer that removed the stale file may lose the create that follows to one that came later.
    expect([undefined, stale.lockId]).toContain(winner.tookOverFrom?.lockId);
    expect((await readDirectoryLock(directory)) as DirectoryLockHolder).toMatchObject({ lockId: winner.holder.lockId });
    // No takeover marker is left behind, and every loser was told who holds the lock now.
    expect(await readdir(directory)).toEqual([DIRECTORY_LOCK_FILE]);
    for (const attempt of attempts.filter((entry) => entry.status === 'rejected'))
      expect((attempt.reason as Error).message).toContain(`(${winner.holder.purpose})`);
    await winner.release();
  });

  it('treats a lock with this process’s pid but an id it does not hold as left by an earlier process', async () => {
    await writeLockFile(DIRECTORY_LOCK_FILE, holderFor(process.pid));
    const lock = await acquireDirectoryLock(directory, { purpose: 'training' });
    expect(lock.tookOverFrom?.lockId).toBe(`stale${process.pid}`);
    await lock.release();
  });

  it('takes over through a takeover marker left by a process killed in the middle of a takeover', async () => {
    const stale = holderFor(await exitedProcessPid());
    await writeLockFile(DIRECTORY_LOCK_FILE, stale);
    await writeLockFile(`${DIRECTORY_LOCK_FILE}.takeover-${stale.lockId}`, holderFor(await exitedProcessPid(), { lockId: 'deadtaker' }));
    const lock = await acquireDirectoryLock(directory, { purpose: 'training' });
    expect(lock.tookOverFrom).toEqual(stale);
    expect(await readdir(directory)).toEqual([DIRECTORY_LOCK_FILE]);
    await lock.release();
  });

  it('never takes over a lock from another host, and says how to remove it', async () => {
    const foreign = holderFor(await exitedProcessPid(), { hostname: 'build-agent-7.example' });
    await writeLockFile(DIRECTORY_LOCK_FILE, foreign);
    const error = await refusal(acquireDirectoryLock(directory, { purpose: 'training' }));
    expect(error.code).toBe(DIRECTORY_LOCKED_ERROR_CODE);
    expect(error.message).toContain(
      `pid ${foreign.pid} on host build-agent-7.example, started 2026-01-02T03:04:05.000Z, running \`skillopt train --out runs/old\``,
    );
    expect(error.message).toContain('never assumed stale');
    expect(error.message).toContain(`remove ${path.join(directory, DIRECTORY_LOCK_FILE)}`);
    expect(await readDirectoryLock(directory)).toEqual(foreign);
  });

  it('refuses an unreadable lock file (a kill while it was created) and says how to remove it', async () => {
    await writeFile(path.join(directory, DIRECTORY_LOCK_FILE), '');
    const error = await refusal(acquireDirectoryLock(directory, { purpose: 'training' }));
    expect(error.code).toBe(DIRECTORY_LOCKED_ERROR_CODE);
    expect(error.message).toContain('cannot be read');
    expect(error.message).toContain(`remove ${path.join(directory, DIRECTORY_LOCK_FILE)}`);
    expect(await readDirectoryLock(directory)).toBe('unreadable');
  });

  it('does not remove a lock that is no longer its own on release', async () => {
    const lock = await acquireDirectoryLock(directory, { purpose: 'training' });
    const other = holderFor(process.pid, { lockId: 'someone-else', hostname: 'elsewhere.example' });
    await writeLockFile(DIRECTORY_LOCK_FILE, other);
    await lock.release();
    expect(await readDirectoryLock(directory)).toEqual(other);
  });

  it('cuts secrets out of the command it records', async () => {
    const lock = await acquireDirectoryLock(directory, {
      purpose: 'training',
      command: 'skillopt train --set backends.openai.api_key=sk-abcdefghijklmnopqrstuv',
    });
    const onDisk = await readFile(path.join(directory, DIRECTORY_LOCK_FILE), 'utf8');
    expect(onDisk).not.toContain('sk-abcdefghijklmnopqrstuv');
    expect(lock.holder.command).toContain('[redacted]');
    await lock.release();
  });

  it('refuses a directory that does not exist', async () => {
    const error = await refusal(acquireDirectoryLock(path.join(directory, 'missing'), { purpose: 'training' }));
    expect(error.message).toContain('is not a directory');
  });
});
