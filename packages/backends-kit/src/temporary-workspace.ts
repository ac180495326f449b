import { mkdtemp, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * Runs `work` in a fresh, empty directory under the system temp directory and removes the
 * directory afterwards, whether `work` succeeded or threw. The path handed over is the real path
 * (on macOS the temp directory is a symlink), so an agent reporting its working directory reports
 * the same string the caller holds.
 *
 * `prefix` is reduced to letters, digits, `-` and `_`, so it cannot point outside the temp
 * directory. When `work` threw, its error wins over a failure to remove the directory.
 */
export async function withTemporaryWorkspace<T>(prefix: string, work: (directory: string) => Promise<T>): Promise<T> {
  const safePrefix = prefix.replace(/[^A-Za-z0-9_-]/g, '-') || 'workspace';
  const directory = await realpath(await mkdtemp(path.join(tmpdir(), `${safePrefix}-`)));
  let result: T;
  try {
    result = await work(directory);
  } catch (error) {
    await rm(directory, { recursive: true, force: true, maxRetries: 3 }).catch(() => undefined);
    throw error;
  }
  await rm(directory, { recursive: true, force: true, maxRetries: 3 });
  return result;
}
