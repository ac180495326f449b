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
