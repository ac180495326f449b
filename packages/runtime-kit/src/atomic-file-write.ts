import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

/** What `writeFileAtomic` accepts: a whole text or buffer, or chunks streamed from an iterable. */
export type AtomicWriteData = string | Uint8Array | AsyncIterable<string | Uint8Array> | Iterable<string | Uint8Array>;

export interface AtomicWriteOptions {
  /** The new file's permission bits (e.g. a replaced file's own); default the process's for a new file. */
  mode?: number;
}

/**
 * Replaces `filePath` with `data` so that a reader, or a run killed at any instant, sees either
 * the old file or the whole new one, never a prefix of the new one.
 *
 * The data goes to a temporary file in the same directory (rename is only atomic within one file
 * system), is flushed to disk with fsync (so a power cut after the rename cannot leave an empty
 * file behind a committed name), and is then renamed over the target. Missing parent directories
 * are created. On any failure the temporary file is removed and the old content stays in place.
 */
export async function writeFileAtomic(filePath: string, data: AtomicWriteData, options: AtomicWriteOptions = {}): Promise<void> {
  const directory = path.dirname(filePath);
  await mkdir(directory, { recursive: true });
  const temporaryPath = temporaryPathFor(filePath);
  // 'wx' refuses to reuse an existing file: the random name makes a clash unlikely, and if one
  // happens we would rather fail than interleave with another writer.
  const handle = await open(temporaryPath, 'wx');
  try {
    try {
      // Set on the temporary file, so the file is never visible under its name with another mode (and the umask does not apply).
      if (options.mode !== undefined) await handle.chmod(options.mode);
      if (typeof data === 'string' || data instanceof Uint8Array) {
        await handle.writeFile(data);
      } else {
        for await (const chunk of data) await handle.writeFile(chunk);
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporaryPath, filePath);
  } catch (error) {
    await rm(temporaryPath, { force: true }).catch(() => undefined);
    throw error;
  }
  await syncDirectory(directory);
}

/** The temporary files writeFileAtomic may leave only while it runs; they start with a dot. */
export const ATOMIC_TEMPORARY_SUFFIX = '.tmp';

export function isAtomicTemporaryFileName(fileName: string): boolean {
  return fileName.startsWith('.') && fileName.endsWith(ATOMIC_TEMPORARY_SUFFIX);
}

function temporaryPathFor(filePath: string): string {
  const unique = `${process.pid}.${randomBytes(6).toString('hex')}`;
  return path.join(path.dirname(filePath), `.${path.basename(filePath)}.${unique}${ATOMIC_TEMPORARY_SUFFIX}`);
}

/**
 * Makes a rename or an unlink in `directory` durable. Best effort: some platforms (Windows) and
 * file systems cannot open or fsync a directory, and the change is already atomic for every reader there.
 */
export async function syncDirectory(directory: string): Promise<void> {
  let handle: Awaited<ReturnType<typeof open>> | undefined;
  try {
    handle = await open(directory, 'r');
    await handle.sync();
  } catch {
    // Not supported here; atomicity towards readers does not depend on it.
  } finally {
    await handle?.close().catch(() => undefined);
  }
}
