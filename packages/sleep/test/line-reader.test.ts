import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { forEachJsonLine } from '../src/harvest/json-lines';
import { forEachLine } from '../src/harvest/line-reader';

describe('lines streamed from a file', () => {
  let folder: string;
  beforeAll(() => {
    folder = mkdtempSync(path.join(os.tmpdir(), 'sleep-lines-'));
  });
  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  const write = (name: string, text: string) => {
    const file = path.join(folder, name);
    writeFileSync(file, text);
    return file;
  };
  const collect = async (file: string, options = {}) => {
    const lines: Array<[number, string]> = [];
    const result = await forEachLine(file, (line, number) => lines.push([number, line.toString()]), options);
    return { lines, result };
  };

  it('gives each line, numbered, across chunk boundaries, with or without a final newline or \\r', async () => {
    const file = write('plain.txt', 'first\r\nsecond line that is long\n\nlast');
    const { lines, result } = await collect(file, { chunkBytes: 4 });
    expect(lines).toEqual([
      [1, 'first'],
      [2, 'second line that is long'],
      [3, ''],
      [4, 'last'],
    ]);
    expect(result).toEqual({ bytesRead: 37, lines: 4 });
  });

  it('streams a declined line past onSkippedBytes without gathering it', async () => {
    const big = `SKIP${'x'.repeat(10_000)}`;
    const file = write('skip.txt', `keep one\n${big}\nkeep two\n`);
    let skippedBytes = 0;
    let gathered = 0;
    const { lines } = await collect(file, {
      chunkBytes: 1024,
      prefixBytes: 4,
      keep: (prefix: Buffer) => prefix.toString() !== 'SKIP',
      onSkippedBytes: (bytes: Buffer) => {
        skippedBytes += bytes.length;
      },
      maxLineBytes: 2048,
      onLineTooLong: () => {
        gathered += 1;
      },
    });
    expect(lines.map(([, text]) => text)).toEqual(['keep one', 'keep two']);
    expect(skippedBytes).toBe(big.length);
    // Had it been gathered, a 10 KB line would have passed the 2 KB limit.
    expect(gathered).toBe(0);
  });

  it('reports a line past the length limit instead of holding it', async () => {
    const file = write('long.txt', `short\n${'y'.repeat(5000)}\nafter\n`);
    const tooLong: Array<[number, number]> = [];
    const { lines } = await collect(file, { chunkBytes: 512, maxLineBytes: 1000, onLineTooLong: (line: number, bytes: number) => tooLong.push([line, bytes]) });
    expect(lines.map(([, text]) => text)).toEqual(['short', 'after']);
    expect(tooLong).toEqual([[2, 5000]]);
  });

  it('gathers a kept line that spans many chunks, and a CRLF whose \\r and \\n fall in different chunks', async () => {
    const long = Array.from({ length: 300 }, (_, index) => `word${index}`).join(' ');
    const file = write('spanning.txt', `${long}\r\nab\r\n${long}`);
    for (const chunkBytes of [3, 7, 64, 1 << 20]) {
      const { lines, result } = await collect(file, { chunkBytes });
      expect(lines).toEqual([
        [1, long],
        [2, 'ab'],
        [3, long],
      ]);
      expect(result.lines).toBe(3);
      expect(result.bytesRead).toBe(2 * long.length + 6);
    }
  });

  it('decides on a prefix that crosses a chunk end, streaming every byte of a skipped line, the final one without a newline', async () => {
    const skipped = `SKIP:${'z'.repeat(5000)}`;
    const file = write('prefix-across.txt', `keep:a\n${skipped}\nkeep:${'k'.repeat(3000)}\n${skipped}`);
    for (const chunkBytes of [2, 5, 333, 4096]) {
      const prefixes: string[] = [];
      const skippedBytes = new Map<number, number>();
      const { lines, result } = await collect(file, {
        chunkBytes,
        prefixBytes: 5,
        keep: (prefix: Buffer, lineNumber: number) => {
          prefixes.push(`${lineNumber}:${prefix.toString()}`);
          return prefix.toString() !== 'SKIP:';
        },
        onSkippedBytes: (bytes: Buffer, lineNumber: number) => skippedBytes.set(lineNumber, (skippedBytes.get(lineNumber) ?? 0) + bytes.length),
      });
      expect(lines).toEqual([
        [1, 'keep:a'],
        [3, `keep:${'k'.repeat(3000)}`],
      ]);
      expect(prefixes).toEqual(['1:keep:', '2:SKIP:', '3:keep:', '4:SKIP:']);
      expect([...skippedBytes]).toEqual([
        [2, skipped.length],
        [4, skipped.length],
      ]);
      expect(result.lines).toBe(4);
    }
  });

  it('shows keep a short line whole, and gives blank lines their numbers', async () => {
    const file = write('short-lines.txt', 'ab\n\n\ncd');
    const prefixes: string[] = [];
    const { lines } = await collect(file, {
      chunkBytes: 3,
      prefixBytes: 8,
      keep: (prefix: Buffer) => {
        prefixes.push(prefix.toString());
        return true;
      },
    });
    expect(prefixes).toEqual(['ab', '', '', 'cd']);
    expect(lines).toEqual([
      [1, 'ab'],
      [2, ''],
      [3, ''],
      [4, 'cd'],
    ]);
  });

  it('reads files one after another and side by side with the default chunk size, each line intact', async () => {
    const lineOf = (file: number, index: number) => `${file}:${index}:${'p'.repeat((index * 7919) % 3000)}`;
    const files = [0, 1, 2].map((number) => write(`many-${number}.txt`, `${Array.from({ length: 2000 }, (_, index) => lineOf(number, index)).join('\n')}\n`));
    const expected = (number: number) => Array.from({ length: 2000 }, (_, index) => lineOf(number, index));
    for (const [number, file] of files.entries()) expect((await collect(file)).lines.map(([, text]) => text)).toEqual(expected(number));
    const together = await Promise.all(files.map((file) => collect(file)));
    for (const [number, { lines }] of together.entries()) expect(lines.map(([, text]) => text)).toEqual(expected(number));
  });

  it('reads a file whose length is a whole number of chunks, and an empty file', async () => {
    const file = write('exact.txt', 'abc\ndefghij\nkl\n');
    expect((await collect(file, { chunkBytes: 8 })).lines).toEqual([
      [1, 'abc'],
      [2, 'defghij'],
      [3, 'kl'],
    ]);
    expect(await collect(write('empty.txt', ''))).toEqual({ lines: [], result: { bytesRead: 0, lines: 0 } });
  });

  it('stops at an aborted signal and closes the file', async () => {
    const file = write('abort.txt', 'one\ntwo\nthree\n');
    const controller = new AbortController();
    const seen: string[] = [];
    await expect(
      forEachLine(
        file,
        (line) => {
          seen.push(line.toString());
          controller.abort();
        },
        { chunkBytes: 4, signal: controller.signal },
      ),
    ).rejects.toThrow();
    expect(seen).toEqual(['one']);
  });

  it('parses JSON Lines, reporting a corrupt line by number and reading on', async () => {
    const file = write('records.jsonl', '{"a":1}\n{"a":\n\n{"a":3}\n');
    const records: Array<[number, unknown]> = [];
    const corrupt: number[] = [];
    await forEachJsonLine(file, (record, line) => records.push([line, record]), { onCorruptLine: (line) => corrupt.push(line) });
    expect(records).toEqual([
      [1, { a: 1 }],
      [4, { a: 3 }],
    ]);
    expect(corrupt).toEqual([2]);
  });
});
