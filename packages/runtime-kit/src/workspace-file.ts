import { constants, type Stats } from 'node:fs';
import { type FileHandle, lstat, open, rm } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import { requirePositiveInteger } from './invalid-option.js';

/** Why a file a sandboxed run left was refused. */
export type WorkspaceFileProblem =
  /** The relative path is absolute, empty, or has a `.` or `..` component. */
  | 'outside'
  /** Nothing is there. */
  | 'missing'
  /** A symbolic link (at the path or in a folder on it), a directory, a FIFO, a device or a socket. */
  | 'not-regular'
  /** The file has a second name, maybe outside the work folder (an answer file, say). */
  | 'hard-linked'
  | 'too-large';

export interface WorkspaceFileOptions {
  /** The most bytes the file may hold; a bigger one is refused by its size, unread. */
  maxBytes: number;
  /** What the file is, for the error's message (`the output`); default its relative path. Never a host path. */
  name?: string;
}

const CHUNK_BYTES = 64 * 1024;

/** The refusal of one read: a `workspace-file-refused` SkillOptError naming the file, never its host path. */
function refusal(relativePath: string, options: WorkspaceFileOptions) {
  const name = options.name ?? relativePath;
  const error = (problem: WorkspaceFileProblem, message: string) =>
    new SkillOptError({
      code: ERROR_CODES.workspaceFileRefused,
      // The file is what the model's code or the agent's harness left: its outcome, not the user's doing.
      category: 'provider',
      message,
      details: { path: relativePath, problem },
    });
  return {
    outside: () => error('outside', `${name} is not a path below the work folder`),
    missing: () => error('missing', `${name} is not in the work folder`),
    notRegular: (why: string) => error('not-regular', `${name} is not a regular file in the work folder: ${why}`),
    hardLinked: () => error('hard-linked', `${name} is a hard link: the same file has another name, maybe outside the work folder`),
    tooLarge: () => error('too-large', `${name} is larger than the ${options.maxBytes} bytes it may hold`),
  };
}

/** Why a refused read was refused, or undefined when `error` is no such refusal. */
export function workspaceFileProblem(error: unknown): WorkspaceFileProblem | undefined {
  if (!SkillOptError.isInstance(error) || error.code !== ERROR_CODES.workspaceFileRefused) return undefined;
  return error.details?.problem as WorkspaceFileProblem;
}

function kindOf(status: Stats): string {
  if (status.isSymbolicLink()) return 'a symbolic link';
  if (status.isDirectory()) return 'a directory';
  if (status.isFIFO()) return 'a FIFO';
  if (status.isCharacterDevice() || status.isBlockDevice()) return 'a device';
  if (status.isSocket()) return 'a socket';
  return 'not a plain file';
}

async function lstatOrMissing(file: string): Promise<Stats | undefined> {
  try {
    return await lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw error;
  }
}

/**
 * Opens a file a sandboxed run wrote, as data: every component below `workspaceRoot` is checked
 * with `lstat` (no symbolic link anywhere, no `.` or `..`), the file is opened without following
 * a link and without blocking (a FIFO swapped in cannot hang the open), and the open descriptor
 * must be the very file `lstat` saw (same device and inode), a regular file with one name, within
 * the size cap. The root itself is the caller's, and trusted. Callers read only once every
 * process of the run has exited; the identity check still catches a file swapped in meanwhile.
 */
async function openWorkspaceFile(workspaceRoot: string, relativePath: string, options: WorkspaceFileOptions): Promise<FileHandle> {
  requirePositiveInteger('maxBytes', options.maxBytes, 0);
  const refuse = refusal(relativePath, options);
  const components = relativePath.split('/');
  if (relativePath.includes('\0') || path.isAbsolute(relativePath) || components.some((part) => part === '' || part === '.' || part === '..'))
    throw refuse.outside();
  let file = workspaceRoot;
  let seen: Stats | undefined;
  for (const [index, component] of components.entries()) {
    file = path.join(file, component);
    seen = await lstatOrMissing(file);
    if (seen === undefined) throw refuse.missing();
    if (index === components.length - 1) break;
    if (seen.isSymbolicLink()) throw refuse.notRegular('a folder on its path is a symbolic link');
    if (!seen.isDirectory()) throw refuse.missing();
  }
  const checked = seen as Stats;
  if (!checked.isFile()) throw refuse.notRegular(`it is ${kindOf(checked)}`);
  if (checked.nlink !== 1) throw refuse.hardLinked();
  if (checked.size > options.maxBytes) throw refuse.tooLarge();

  let handle: FileHandle;
  try {
    handle = await open(file, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK | constants.O_NOCTTY);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw refuse.notRegular('it was replaced by a symbolic link');
    if (code === 'ENOENT') throw refuse.missing();
    throw error;
  }
  try {
    const opened = await handle.stat();
    if (opened.dev !== checked.dev || opened.ino !== checked.ino) throw refuse.notRegular('it was replaced while it was opened');
    if (!opened.isFile()) throw refuse.notRegular(`it is ${kindOf(opened)}`);
    if (opened.nlink !== 1) throw refuse.hardLinked();
    if (opened.size > options.maxBytes) throw refuse.tooLarge();
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The descriptor's bytes in chunks, refusing the file once it holds more than `maxBytes` (it grew after the check). */
async function* chunksOf(handle: FileHandle, relativePath: string, options: WorkspaceFileOptions): AsyncGenerator<Buffer> {
  let total = 0;
  for (;;) {
    const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, CHUNK_BYTES, null);
    if (bytesRead === 0) return;
    total += bytesRead;
    if (total > options.maxBytes) throw refusal(relativePath, options).tooLarge();
    yield buffer.subarray(0, bytesRead);
  }
}

/**
 * The bytes of `relativePath` (`/`-separated) below `workspaceRoot`, a file a sandboxed run
 * wrote, read as data and never as a path (see `openWorkspaceFile` for what is checked). Anything
 * else throws a `workspace-file-refused` SkillOptError whose message names the relative path (or
 * `name`) and why; `workspaceFileProblem(error)` tells which problem it was.
 */
export async function readWorkspaceFile(workspaceRoot: string, relativePath: string, options: WorkspaceFileOptions): Promise<Buffer> {
  const handle = await openWorkspaceFile(workspaceRoot, relativePath, options);
  try {
    const chunks: Buffer[] = [];
    for await (const chunk of chunksOf(handle, relativePath, options)) chunks.push(chunk);
    return Buffer.concat(chunks);
  } finally {
    await handle.close();
  }
}

/**
 * Copies `relativePath` below `workspaceRoot` to `destination`, a new file on the trusted side (an
 * existing one is an error), streaming from the checked descriptor, with the checks and errors of
 * `readWorkspaceFile`. A refused or failed copy leaves no destination behind.
 */
export async function copyWorkspaceFile(workspaceRoot: string, relativePath: string, destination: string, options: WorkspaceFileOptions): Promise<void> {
  const source = await openWorkspaceFile(workspaceRoot, relativePath, options);
  try {
    const target = await open(destination, 'wx');
    let copied = false;
    try {
      for await (const chunk of chunksOf(source, relativePath, options)) await target.writeFile(chunk);
      copied = true;
    } finally {
      await target.close();
      if (!copied) await rm(destination, { force: true });
    }
  } finally {
    await source.close();
  }
}
