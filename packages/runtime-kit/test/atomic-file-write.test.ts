import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { writeFileAtomic } from '../src/atomic-file-write';

let directory: string;
beforeEach(() => {
  directory = mkdtempSync(path.join(os.tmpdir(), 'atomic-file-write-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

test('writes the file whole, with the mode asked for whatever the umask, and leaves no temporary file', async () => {
  const file = path.join(directory, 'script.sh');
  writeFileSync(file, 'old\n', { mode: 0o600 });
  await writeFileAtomic(file, '#!/bin/sh\necho new\n', { mode: 0o751 });
  expect(readFileSync(file, 'utf8')).toBe('#!/bin/sh\necho new\n');
  expect(statSync(file).mode & 0o7777).toBe(0o751);
  await writeFileAtomic(path.join(directory, 'plain.txt'), 'text');
  expect(statSync(path.join(directory, 'plain.txt')).mode & 0o7777).toBe(0o666 & ~process.umask());
  expect(readdirSync(directory).sort()).toEqual(['plain.txt', 'script.sh']);
});
