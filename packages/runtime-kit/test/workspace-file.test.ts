import { execFileSync } from 'node:child_process';
import { existsSync, linkSync, mkdirSync, mkdtempSync, openSync, closeSync, ftruncateSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ERROR_CODES } from '@skillopt/contract';
import { copyWorkspaceFile, readWorkspaceFile, type WorkspaceFileProblem, workspaceFileProblem } from '../src/workspace-file';

// The work folder a sandboxed run wrote in, and beside it a host folder holding a file the run must
// never get read back: the answer.
let root: string;
let workspace: string;
let answer: string;
beforeEach(() => {
  root = mkdtempSync(path.join(os.tmpdir(), 'workspace-file-'));
  workspace = path.join(root, 'work');
  mkdirSync(path.join(workspace, 'outputs'), { recursive: true });
  mkdirSync(path.join(root, 'answers'));
  answer = path.join(root, 'answers', 'answer.xlsx');
  writeFileSync(answer, 'the answer');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

const LIMIT = { maxBytes: 1024 };

/** How reading `relativePath` was refused, with the error checked: the code, and no host path in the message. */
async function refusalOf(
  relativePath: string,
  options: { maxBytes: number; name?: string } = LIMIT,
): Promise<{ problem: WorkspaceFileProblem | undefined; message: string }> {
  const error = await readWorkspaceFile(workspace, relativePath, options).then(
    () => undefined,
    (thrown: unknown) => thrown as Error & { code?: string },
  );
  if (error === undefined) throw new Error(`${relativePath} was read`);
  expect(error.code).toBe(ERROR_CODES.workspaceFileRefused);
  expect(error.message).not.toContain(root);
  return { problem: workspaceFileProblem(error), message: error.message };
}

function makeFifo(file: string): void {
  execFileSync('/usr/bin/mkfifo', [file]);
}

describe('readWorkspaceFile', () => {
  it('reads a regular file below the work folder', async () => {
    writeFileSync(path.join(workspace, 'outputs', '1.xlsx'), 'a workbook');
    expect((await readWorkspaceFile(workspace, 'outputs/1.xlsx', LIMIT)).toString()).toBe('a workbook');
    writeFileSync(path.join(workspace, 'empty'), '');
    expect(await readWorkspaceFile(workspace, 'empty', { maxBytes: 0 })).toHaveLength(0);
  });

  it('refuses a symbolic link to the answer, absolute or relative, naming the relative path only', async () => {
    symlinkSync(answer, path.join(workspace, 'outputs', '1.xlsx'));
    symlinkSync(path.relative(path.join(workspace, 'outputs'), answer), path.join(workspace, 'outputs', '2.xlsx'));
    expect(await refusalOf('outputs/1.xlsx')).toEqual({
      problem: 'not-regular',
      message: 'outputs/1.xlsx is not a regular file in the work folder: it is a symbolic link',
    });
    expect(await refusalOf('outputs/2.xlsx', { ...LIMIT, name: 'the output' })).toEqual({
      problem: 'not-regular',
      message: 'the output is not a regular file in the work folder: it is a symbolic link',
    });
  });

  it('refuses a symbolic link to a directory, to a FIFO and to /dev/zero, without hanging on either', async () => {
    symlinkSync(path.join(root, 'answers'), path.join(workspace, 'to-directory'));
    makeFifo(path.join(root, 'answers', 'fifo'));
    symlinkSync(path.join(root, 'answers', 'fifo'), path.join(workspace, 'to-fifo'));
    symlinkSync('/dev/zero', path.join(workspace, 'to-zero'));
    for (const link of ['to-directory', 'to-fifo', 'to-zero']) expect((await refusalOf(link)).problem).toBe('not-regular');
  });

  it('refuses a file below a folder that is a symbolic link', async () => {
    // The folder the output should be in points at the answers' folder, which holds a file of that name.
    rmSync(path.join(workspace, 'outputs'), { recursive: true });
    symlinkSync(path.join(root, 'answers'), path.join(workspace, 'outputs'));
    expect(await refusalOf('outputs/answer.xlsx')).toEqual({
      problem: 'not-regular',
      message: 'outputs/answer.xlsx is not a regular file in the work folder: a folder on its path is a symbolic link',
    });
  });

  it('refuses a hard link to the answer, and a file with a second name inside the work folder too', async () => {
    linkSync(answer, path.join(workspace, 'outputs', '1.xlsx'));
    expect(await refusalOf('outputs/1.xlsx')).toEqual({
      problem: 'hard-linked',
      message: 'outputs/1.xlsx is a hard link: the same file has another name, maybe outside the work folder',
    });
    writeFileSync(path.join(workspace, 'input.xlsx'), 'the input');
    linkSync(path.join(workspace, 'input.xlsx'), path.join(workspace, 'output.xlsx'));
    expect((await refusalOf('output.xlsx')).problem).toBe('hard-linked');
  });

  it('refuses a FIFO and a directory', async () => {
    makeFifo(path.join(workspace, 'outputs', '1.xlsx'));
    expect((await refusalOf('outputs/1.xlsx')).message).toBe('outputs/1.xlsx is not a regular file in the work folder: it is a FIFO');
    mkdirSync(path.join(workspace, 'outputs', '2.xlsx'));
    expect((await refusalOf('outputs/2.xlsx')).message).toBe('outputs/2.xlsx is not a regular file in the work folder: it is a directory');
  });

  it('refuses a file larger than the cap', async () => {
    writeFileSync(path.join(workspace, 'big'), Buffer.alloc(LIMIT.maxBytes + 1));
    expect(await refusalOf('big')).toEqual({ problem: 'too-large', message: 'big is larger than the 1024 bytes it may hold' });
    writeFileSync(path.join(workspace, 'exact'), Buffer.alloc(LIMIT.maxBytes));
    expect(await readWorkspaceFile(workspace, 'exact', LIMIT)).toHaveLength(LIMIT.maxBytes);
  });

  it('refuses a sparse file bigger than the cap by its size, without reading it', async () => {
    // 64 GiB of holes: reading it would take minutes, refusing it takes an lstat.
    const descriptor = openSync(path.join(workspace, 'sparse'), 'w');
    ftruncateSync(descriptor, 64 * 1024 ** 3);
    closeSync(descriptor);
    const started = performance.now();
    expect((await refusalOf('sparse', { maxBytes: 1024 * 1024 })).problem).toBe('too-large');
    expect(performance.now() - started).toBeLessThan(1_000);
  });

  it('refuses what is missing, and a path that is not below the work folder', async () => {
    expect(await refusalOf('outputs/3.xlsx')).toEqual({ problem: 'missing', message: 'outputs/3.xlsx is not in the work folder' });
    writeFileSync(path.join(workspace, 'file'), 'text');
    expect((await refusalOf('file/below')).problem).toBe('missing');
    for (const outside of ['../answers/answer.xlsx', 'outputs/../../answers/answer.xlsx', './file', 'outputs//1.xlsx', ''])
      expect((await refusalOf(outside)).problem).toBe('outside');
    // An absolute path is the caller's mistake, and its message names what the caller gave.
    await expect(readWorkspaceFile(workspace, answer, LIMIT)).rejects.toMatchObject({ details: { problem: 'outside' } });
  });

  it('tells a refusal from any other error', () => {
    expect(workspaceFileProblem(new Error('ENOENT'))).toBeUndefined();
  });
});

describe('copyWorkspaceFile', () => {
  it('copies a regular file to a new file, and never over an existing one', async () => {
    writeFileSync(path.join(workspace, 'outputs', '1.xlsx'), 'a workbook');
    const copy = path.join(root, 'copy.xlsx');
    await copyWorkspaceFile(workspace, 'outputs/1.xlsx', copy, LIMIT);
    expect(readFileSync(copy, 'utf8')).toBe('a workbook');
    await expect(copyWorkspaceFile(workspace, 'outputs/1.xlsx', copy, LIMIT)).rejects.toMatchObject({ code: 'EEXIST' });
  });

  it('refuses a link with the same error, and leaves no copy behind', async () => {
    symlinkSync(answer, path.join(workspace, 'outputs', '1.xlsx'));
    const copy = path.join(root, 'copy.xlsx');
    await expect(copyWorkspaceFile(workspace, 'outputs/1.xlsx', copy, { ...LIMIT, name: 'the output' })).rejects.toMatchObject({
      code: ERROR_CODES.workspaceFileRefused,
      message: 'the output is not a regular file in the work folder: it is a symbolic link',
      details: { path: 'outputs/1.xlsx', problem: 'not-regular' },
    });
    expect(existsSync(copy)).toBe(false);
  });
});
