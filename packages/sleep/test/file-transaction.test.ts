import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ADOPTION_REFUSED_ERROR_CODE, recoverInterruptedTransaction, runFileTransaction } from '../src/adoption/file-transaction';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe('a file transaction', () => {
  let root: string;
  let journalDirectory: string;
  let backupDirectory: string;
  beforeEach(() => {
    root = realpathSync(mkdtempSync(path.join(os.tmpdir(), 'sleep-transaction-')));
    journalDirectory = path.join(root, 'journal');
    backupDirectory = path.join(root, 'backups');
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('replaces, creates and removes files as one, and hands a content function the plan', async () => {
    const kept = path.join(root, 'kept.md');
    const removed = path.join(root, 'removed.md');
    const record = path.join(root, 'record.json');
    writeFileSync(kept, 'old\n');
    writeFileSync(removed, 'gone\n');
    const result = await runFileTransaction({
      journalDirectory,
      label: 'a test',
      backupDirectory,
      changes: [
        { livePath: kept, expectedSha256: sha256('old\n'), replacement: 'new\n' },
        { livePath: removed, expectedSha256: sha256('gone\n'), replacement: null },
        { livePath: record, expectedSha256: null, replacement: (plan) => JSON.stringify(plan.map((change) => change.backupFile)) },
      ],
    });
    expect(readFileSync(kept, 'utf8')).toBe('new\n');
    expect(existsSync(removed)).toBe(false);
    const backups = result.changes.map((change) => change.backupFile);
    expect(JSON.parse(readFileSync(record, 'utf8'))).toEqual(backups);
    expect(backups.slice(0, 2).map((backup) => readFileSync(backup!, 'utf8'))).toEqual(['old\n', 'gone\n']);
    expect(backups[2]).toBeNull();
    expect(result.changes.map((change) => change.sha256After)).toEqual([sha256('new\n'), null, sha256(readFileSync(record, 'utf8'))]);
    expect(readdirSync(journalDirectory)).toEqual([]);
    expect(await recoverInterruptedTransaction(journalDirectory)).toBeUndefined();
  });

  it('writes nothing, not even a backup, when any file is not what its change expects, and names every such file', async () => {
    const first = path.join(root, 'first.md');
    const second = path.join(root, 'second.md');
    writeFileSync(first, 'one\n');
    writeFileSync(second, 'two\n');
    const refused = runFileTransaction({
      journalDirectory,
      label: 'a test',
      backupDirectory,
      changes: [
        { livePath: first, expectedSha256: sha256('one\n'), replacement: 'uno\n' },
        { livePath: second, expectedSha256: null, replacement: 'dos\n' },
        { livePath: path.join(root, 'third.md'), expectedSha256: sha256('three\n'), replacement: 'tres\n' },
      ],
    });
    await expect(refused).rejects.toMatchObject({ code: ADOPTION_REFUSED_ERROR_CODE, category: 'user' });
    await expect(refused).rejects.toThrow(
      /2 files have changed.*second\.md \(expected no file, found sha256 .*third\.md \(expected sha256 .*, found no file\)/,
    );
    expect(readFileSync(first, 'utf8')).toBe('one\n');
    expect(readFileSync(second, 'utf8')).toBe('two\n');
    expect(existsSync(path.join(root, 'third.md'))).toBe(false);
    expect(existsSync(backupDirectory)).toBe(false);
    expect(readdirSync(journalDirectory)).toEqual([]);
  });
});
