import { randomBytes } from 'node:crypto';
import { readFileSync, unlinkSync } from 'node:fs';
import { open, readdir, readFile, stat, unlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { ERROR_CODES, SkillOptError, redactSecretText } from '@skillopt/contract';
import { z } from 'zod';
import { secretEnvironmentValues } from '../run-store/secret-guard.js';
import { isProcessRunning } from './process-liveness.js';

/** The lock file, directly inside the locked directory. */
export const DIRECTORY_LOCK_FILE = 'skillopt.lock';

/** The code of the error for a directory another process holds (a user error: exit 2). */
export const DIRECTORY_LOCKED_ERROR_CODE = 'directory-locked';

/** Who holds a directory lock: the content of its lock file. */
export interface DirectoryLockHolder {
  /** Random, one per acquisition: what a release or a takeover checks before it removes a file. */
  lockId: string;
  pid: number;
  hostname: string;
  /** ISO time the lock was taken. */
  startedAt: string;
  /** The command line of the holder, secrets cut out. */
  command: string;
  /** What the holder does in the directory ("training", "resuming training", "sleep state"). */
  purpose: string;
}

export interface DirectoryLockOptions {
  /** What the holder does in the directory; named to whoever is refused. */
  purpose: string;
  /** The command line to name to whoever is refused; default this process's arguments. */
  command?: string | undefined;
}

export interface DirectoryLock {
  /** The locked directory, absolute. */
  readonly directory: string;
  readonly lockFile: string;
  readonly holder: DirectoryLockHolder;
  /** The holder of the stale lock this acquisition took over (a process on this host that no longer runs). */
  readonly tookOverFrom: DirectoryLockHolder | undefined;
  /** Removes the lock file if it is still this lock's. Safe to call more than once. */
  release(): Promise<void>;
}

const holderSchema = z.object({
  lockId: z.string().min(1),
  pid: z.number().int().positive(),
  hostname: z.string(),
  startedAt: z.string(),
  command: z.string(),
  purpose: z.string(),
});

type ReadHolder = DirectoryLockHolder | 'missing' | 'unreadable';
type Claim = { claimed: true; tookOverFrom: DirectoryLockHolder | undefined } | { claimed: false; heldBy: DirectoryLockHolder | 'unreadable' };

/** The locks this process holds, so a lock file with this process's pid but another id is known to be stale. */
const locksHeldHere = new Set<string>();

// A lock file is created and then written: a reader may catch it empty for a moment. Retrying this
// often, this far apart, covers that and a takeover by another process in flight (milliseconds).
const ATTEMPTS = 50;
const RETRY_DELAY_MS = 20;
// Breaking a stale lock needs the takeover marker for it, and a stale marker needs its own; past
// this depth (each level is a process killed within milliseconds of the last) the user decides.
const MAX_TAKEOVER_DEPTH = 3;

/**
 * Locks a directory for this process: one holder at a time, whatever it does there (a training
 * run, Sleep's state, an adoption). The lock is a file created with O_EXCL (`wx`) that names the
 * holder's pid, host, start time and command, so creation is atomic and whoever is refused is told
 * who holds it. A lock whose process no longer runs on this host — a run killed with SIGKILL, a
 * crash — is stale and taken over; one from another host is never assumed stale (its process
 * cannot be checked from here) and the error says how to remove it.
 *
 * Taking over is atomic too: the stale file is removed only by the process that created the
 * takeover marker for that very lock (`skillopt.lock.takeover-<lockId>`, again with O_EXCL), and
 * only after checking, under the marker, that the file is still the stale one. Two processes that
 * both found the lock stale therefore cannot both remove it, nor remove a lock taken in between;
 * each then tries the exclusive create again, and exactly one wins.
 *
 * The directory must exist. The lock is released by `release()`, and on `process.exit` if the
 * holder did not release it; a process killed outright leaves a stale lock that the next one takes over.
 */
export async function acquireDirectoryLock(directory: string, options: DirectoryLockOptions): Promise<DirectoryLock> {
  const absolute = path.resolve(directory);
  await requireDirectory(absolute);
  const lockFile = path.join(absolute, DIRECTORY_LOCK_FILE);
  const holder: DirectoryLockHolder = {
    lockId: randomBytes(8).toString('hex'),
    pid: process.pid,
    hostname: os.hostname(),
    startedAt: new Date().toISOString(),
    command: redactSecretText(options.command ?? process.argv.slice(1).join(' '), secretEnvironmentValues()),
    purpose: options.purpose,
  };
  locksHeldHere.add(holder.lockId);
  let claim: Claim;
  try {
    claim = await claimFile(lockFile, holder, 0);
  } catch (error) {
    locksHeldHere.delete(holder.lockId);
    throw error;
  }
  if (!claim.claimed) {
    locksHeldHere.delete(holder.lockId);
    throw lockHeldError(absolute, lockFile, claim.heldBy);
  }
  await removeAbandonedTakeoverMarkers(absolute);

  let released = false;
  const releaseAtExit = () => {
    locksHeldHere.delete(holder.lockId);
    try {
      if (parseHolder(readFileSync(lockFile, 'utf8'))?.lockId === holder.lockId) unlinkSync(lockFile);
    } catch {
      // Already gone; at exit there is nobody left to tell.
    }
  };
  process.once('exit', releaseAtExit);
  return {
    directory: absolute,
    lockFile,
    holder,
    tookOverFrom: claim.tookOverFrom,
    async release() {
      if (released) return;
      released = true;
      process.removeListener('exit', releaseAtExit);
      locksHeldHere.delete(holder.lockId);
      await removeIfHeldBy(lockFile, holder.lockId);
    },
  };
}

/** The holder named in a directory's lock file: undefined when it has none, 'unreadable' when it cannot be parsed. */
export async function readDirectoryLock(directory: string): Promise<DirectoryLockHolder | 'unreadable' | undefined> {
  const holder = await readHolder(path.join(path.resolve(directory), DIRECTORY_LOCK_FILE));
  return holder === 'missing' ? undefined : holder;
}

/** Creates `filePath` for `holder`, taking it over when its holder is stale; the recursion is on takeover markers. */
async function claimFile(filePath: string, holder: DirectoryLockHolder, depth: number): Promise<Claim> {
  let tookOverFrom: DirectoryLockHolder | undefined;
  let existing: ReadHolder = 'missing';
  let waitFirst = false;
  for (let attempt = 0; attempt < ATTEMPTS; attempt += 1) {
    if (waitFirst) await delay(RETRY_DELAY_MS);
    waitFirst = true;
    if (await createExclusively(filePath, holder)) return { claimed: true, tookOverFrom };
    existing = await readHolder(filePath);
    // Released in between: create again at once. Unreadable: being written, or left empty by a kill: look again.
    if (existing === 'missing') waitFirst = false;
    if (typeof existing !== 'object') continue;
    if (!isStale(existing) || depth >= MAX_TAKEOVER_DEPTH) return { claimed: false, heldBy: existing };
    const marker = `${filePath}.takeover-${existing.lockId}`;
    // Not claimed: another process is taking this lock over; see what it leaves.
    if (!(await claimFile(marker, holder, depth + 1)).claimed) continue;
    try {
      const current = await readHolder(filePath);
      if (typeof current === 'object' && current.lockId === existing.lockId) {
        await unlinkIfPresent(filePath);
        tookOverFrom = existing;
      }
    } finally {
      await unlinkIfPresent(marker);
    }
    waitFirst = false;
  }
  return { claimed: false, heldBy: typeof existing === 'object' ? existing : 'unreadable' };
}

/** True when this process created the file; false when it already existed. */
async function createExclusively(filePath: string, holder: DirectoryLockHolder): Promise<boolean> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(filePath, 'wx');
  } catch (error) {
    if (errorCode(error) === 'EEXIST') return false;
    throw error;
  }
  try {
    await handle.writeFile(`${JSON.stringify(holder, null, 2)}\n`);
    await handle.sync();
  } finally {
    await handle.close();
  }
  return true;
}

function isStale(holder: DirectoryLockHolder): boolean {
  if (holder.hostname !== os.hostname()) return false;
  // This process's own pid: stale unless it is a lock this process holds now (a former process had the pid).
  if (holder.pid === process.pid) return !locksHeldHere.has(holder.lockId);
  return !isProcessRunning(holder.pid);
}

async function readHolder(filePath: string): Promise<ReadHolder> {
  let text: string;
  try {
    text = await readFile(filePath, 'utf8');
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return 'missing';
    throw error;
  }
  return parseHolder(text) ?? 'unreadable';
}

function parseHolder(text: string): DirectoryLockHolder | undefined {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

async function removeIfHeldBy(filePath: string, lockId: string): Promise<void> {
  const current = await readHolder(filePath);
  if (typeof current === 'object' && current.lockId === lockId) await unlinkIfPresent(filePath);
}

/**
 * Takeover markers are removed by their creator; one killed in the middle of a takeover leaves its
 * marker behind. Once this process holds the lock, no marker can matter: each names a lock that is gone.
 */
async function removeAbandonedTakeoverMarkers(directory: string): Promise<void> {
  const names = await readdir(directory).catch(() => [] as string[]);
  for (const name of names) if (name.startsWith(`${DIRECTORY_LOCK_FILE}.takeover-`)) await unlinkIfPresent(path.join(directory, name));
}

async function unlinkIfPresent(filePath: string): Promise<void> {
  try {
    await unlink(filePath);
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
}

async function requireDirectory(directory: string): Promise<void> {
  let isDirectory = false;
  try {
    isDirectory = (await stat(directory)).isDirectory();
  } catch (error) {
    if (errorCode(error) !== 'ENOENT') throw error;
  }
  if (!isDirectory)
    throw new SkillOptError({
      code: ERROR_CODES.configInvalid,
      category: 'user',
      message: `${directory} is not a directory, so it cannot be locked; create it first.`,
      details: { directory },
    });
}

function lockHeldError(directory: string, lockFile: string, holder: DirectoryLockHolder | 'unreadable'): SkillOptError {
  let message: string;
  if (holder === 'unreadable')
    message =
      `${directory} is locked, but its lock file ${lockFile} cannot be read (a process killed while it created the lock leaves it empty). ` +
      `If no skillopt process uses the directory, remove ${lockFile} and run the command again.`;
  else {
    const who = `pid ${holder.pid} on host ${holder.hostname}, started ${holder.startedAt}, running \`${holder.command}\` (${holder.purpose})`;
    message =
      holder.hostname === os.hostname()
        ? `${directory} is in use by another process: ${who}. Wait for it to finish or stop it (kill ${holder.pid}), or use another directory. ` +
          `If pid ${holder.pid} is not that command (its pid was reused after a crash), remove ${lockFile} and run the command again.`
        : `${directory} is in use by a process on another host: ${who}. A lock from another host is never assumed stale, since its process cannot be checked from here: ` +
          `if no process on ${holder.hostname} uses the directory any more, remove ${lockFile} and run the command again.`;
  }
  return new SkillOptError({
    code: DIRECTORY_LOCKED_ERROR_CODE,
    category: 'user',
    retryable: false,
    message,
    details: { directory, lockFile, ...(holder === 'unreadable' ? {} : { holder }) },
  });
}

function errorCode(error: unknown): unknown {
  return typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
}
