import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { isAtomicTemporaryFileName, writeFileAtomic, writeJsonAtomic } from '../../src/run-store/index';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'skillopt-atomic-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

async function temporaryFilesIn(folder: string): Promise<string[]> {
  return (await readdir(folder)).filter(isAtomicTemporaryFileName);
}

describe('writeFileAtomic', () => {
  it('creates missing directories and leaves no temporary file behind', async () => {
    const target = path.join(directory, 'a', 'b', 'file.md');
    await writeFileAtomic(target, '# skill\n');
    expect(await readFile(target, 'utf8')).toBe('# skill\n');
    expect(await temporaryFilesIn(path.dirname(target))).toEqual([]);
  });

  it('replaces an existing file as a whole', async () => {
    const target = path.join(directory, 'file.txt');
    await writeFileAtomic(target, 'old');
    await writeFileAtomic(target, Buffer.from('new content'));
    expect(await readFile(target, 'utf8')).toBe('new content');
  });

  it('writes streamed chunks', async () => {
    const target = path.join(directory, 'streamed.txt');
    async function* chunks() {
      yield 'one ';
      yield Buffer.from('two');
    }
    await writeFileAtomic(target, chunks());
    expect(await readFile(target, 'utf8')).toBe('one two');
  });

  it('keeps the old content and removes the temporary file when the write fails part-way', async () => {
    const target = path.join(directory, 'state.json');
    await writeFileAtomic(target, 'committed');
    async function* failingChunks() {
      yield 'half of the new ';
      throw new Error('disk full');
    }
    await expect(writeFileAtomic(target, failingChunks())).rejects.toThrow('disk full');
    expect(await readFile(target, 'utf8')).toBe('committed');
    expect(await temporaryFilesIn(directory)).toEqual([]);
  });

  it('removes the temporary file when the final rename fails', async () => {
    // A directory in the way makes the rename fail after the data was written.
    const target = path.join(directory, 'occupied');
    await mkdir(target);
    await writeFile(path.join(target, 'keep.txt'), 'kept');
    await expect(writeFileAtomic(target, 'data')).rejects.toThrow();
    expect(await readFile(path.join(target, 'keep.txt'), 'utf8')).toBe('kept');
    expect(await temporaryFilesIn(directory)).toEqual([]);
  });
});

describe('writeJsonAtomic', () => {
  it('writes 2-space JSON with a trailing newline', async () => {
    const target = path.join(directory, 'value.json');
    await writeJsonAtomic(target, { a: 1, b: [true, null] });
    expect(await readFile(target, 'utf8')).toBe('{\n  "a": 1,\n  "b": [\n    true,\n    null\n  ]\n}\n');
  });

  it('fails before touching the file when the value is not JSON', async () => {
    const target = path.join(directory, 'value.json');
    await writeJsonAtomic(target, { ok: true });
    await expect(writeJsonAtomic(target, { big: 1n })).rejects.toThrow();
    await expect(writeJsonAtomic(target, undefined)).rejects.toThrow(/not JSON/);
    expect(JSON.parse(await readFile(target, 'utf8'))).toEqual({ ok: true });
    expect(await temporaryFilesIn(directory)).toEqual([]);
  });
});
