import { existsSync, realpathSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { withTemporaryWorkspace } from '../src/index';

describe('withTemporaryWorkspace', () => {
  it('hands over a fresh empty directory under the temp directory and removes it afterwards', async () => {
    let seen = '';
    const result = await withTemporaryWorkspace('skillopt-test', async (directory) => {
      seen = directory;
      expect(directory.startsWith(realpathSync(tmpdir()))).toBe(true);
      expect(path.basename(directory)).toMatch(/^skillopt-test-/);
      expect(await readdir(directory)).toEqual([]);
      await mkdir(path.join(directory, 'nested'));
      await writeFile(path.join(directory, 'nested', 'file.txt'), 'content');
      return 'done';
    });
    expect(result).toBe('done');
    expect(existsSync(seen)).toBe(false);
  });

  it('removes the directory when the work throws, and passes the error on', async () => {
    let seen = '';
    const failure = new Error('agent crashed');
    await expect(
      withTemporaryWorkspace('skillopt-test', async (directory) => {
        seen = directory;
        await writeFile(path.join(directory, 'partial.txt'), 'half');
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(seen).not.toBe('');
    expect(existsSync(seen)).toBe(false);
  });

  it('keeps a prefix with path separators inside the temp directory', async () => {
    await withTemporaryWorkspace('../../escape/attempt', async (directory) => {
      expect(path.dirname(directory)).toBe(realpathSync(tmpdir()));
    });
  });
});
