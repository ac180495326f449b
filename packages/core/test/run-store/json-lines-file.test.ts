import { readdirSync, readlinkSync } from 'node:fs';
import { appendFile, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createJsonLinesAppender, parseJsonLinesText, readJsonLinesFile } from '../../src/run-store/index';

let directory: string;
beforeEach(async () => {
  directory = await mkdtemp(path.join(tmpdir(), 'skillopt-jsonl-'));
});
afterEach(async () => {
  await rm(directory, { recursive: true, force: true });
});

describe('JSON Lines files', () => {
  it('appends whole lines and reads them back in order', async () => {
    const file = path.join(directory, 'nested', 'log.jsonl');
    const appender = createJsonLinesAppender(file);
    await Promise.all(Array.from({ length: 50 }, (_, index) => appender.append({ index, text: 'line\nwith newline' })));
    await appender.flush();
    const content = await readJsonLinesFile<{ index: number }>(file);
    expect(content.records.map((record) => record.index)).toEqual(Array.from({ length: 50 }, (_, index) => index));
    expect(content.malformedLines).toEqual([]);
    expect(content.tornFinalLine).toBeUndefined();
  });

  it('reads a missing file as empty', async () => {
    expect(await readJsonLinesFile(path.join(directory, 'missing.jsonl'))).toEqual({ records: [], malformedLines: [], tornFinalLine: undefined });
  });

  it('ignores and reports a torn final line, and never glues the next record to it', async () => {
    const file = path.join(directory, 'log.jsonl');
    await writeFile(file, '{"n":1}\n{"n":2}\n{"n":3, "tex');
    const torn = await readJsonLinesFile<{ n: number }>(file);
    expect(torn.records).toEqual([{ n: 1 }, { n: 2 }]);
    expect(torn.tornFinalLine).toBe('{"n":3, "tex');

    const appender = createJsonLinesAppender(file);
    await appender.append({ n: 4 });
    const after = await readJsonLinesFile<{ n: number }>(file);
    expect(after.records).toEqual([{ n: 1 }, { n: 2 }, { n: 4 }]);
    expect(after.tornFinalLine).toBeUndefined();
    expect(after.malformedLines).toEqual([expect.objectContaining({ lineNumber: 3, text: '{"n":3, "tex' })]);
    expect(await readFile(file, 'utf8')).toBe('{"n":1}\n{"n":2}\n{"n":3, "tex\n{"n":4}\n');
  });

  it('reports malformed and rejected lines with their line numbers', async () => {
    const content = parseJsonLinesText<number>('1\nnot json\n\n"text"\n3\n', {
      accept: (value) => (typeof value === 'number' ? { ok: true, record: value } : { ok: false, reason: 'not a number' }),
    });
    expect(content.records).toEqual([1, 3]);
    expect(content.malformedLines.map((line) => [line.lineNumber, line.text])).toEqual([
      [2, 'not json'],
      [4, '"text"'],
    ]);
    expect(content.malformedLines[1]?.reason).toBe('not a number');
  });

  it('keeps one handle open on the file across appends, and none after close()', async () => {
    const file = path.join(directory, 'log.jsonl');
    // The process's open descriptors that point at the file (Linux exposes them under /proc).
    const handlesOnFile = () =>
      readdirSync('/proc/self/fd').filter((descriptor) => {
        try {
          return readlinkSync(`/proc/self/fd/${descriptor}`) === file;
        } catch {
          return false;
        }
      }).length;
    const appender = createJsonLinesAppender(file);
    for (let index = 0; index < 20; index += 1) {
      await appender.append({ index });
      expect(handlesOnFile()).toBe(1);
    }
    await appender.close();
    expect(handlesOnFile()).toBe(0);
    // A torn line written while it was closed is kept apart from the next record.
    await appendFile(file, '{"torn":');
    await appender.append({ index: 20 });
    await appender.close();
    const content = await readJsonLinesFile<{ index: number }>(file);
    expect(content.records.map((record) => record.index)).toEqual(Array.from({ length: 21 }, (_, index) => index));
    expect(content.malformedLines).toHaveLength(1);
  });

  it('surfaces a failed append through flush', async () => {
    const blocker = path.join(directory, 'file-not-directory');
    await appendFile(blocker, 'x');
    const appender = createJsonLinesAppender(path.join(blocker, 'log.jsonl'));
    await expect(appender.append({ a: 1 })).rejects.toThrow();
    await expect(appender.flush()).rejects.toThrow();
    await expect(appender.flush()).resolves.toBeUndefined();
  });
});
