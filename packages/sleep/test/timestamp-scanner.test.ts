import { createTimestampScanner } from '../src/sources/claude-code/timestamp-scanner.js';

const LINE = Buffer.from(
  '{"type":"user","message":{"content":[{"content":"she said \\"timestamp\\":\\"1999\\" once"}]},"uuid":"u","timestamp":"2026-11-29T06:48:50.202Z","toolUseResult":{"stdout":"x"}}',
);

function scan(chunks: Buffer[], lineNumber = 1): string[] {
  const found: string[] = [];
  const scanner = createTimestampScanner((timestamp) => found.push(timestamp));
  for (const chunk of chunks) scanner.push(chunk, lineNumber);
  return found;
}

describe('the timestamp scan of a line streaming past', () => {
  test('finds the record’s own time, not an escaped look-alike inside a string', () => {
    expect(scan([LINE])).toEqual(['2026-11-29T06:48:50.202Z']);
  });

  test('finds it wherever the chunks split the key or the value, in two parts or byte by byte', () => {
    for (let cut = 1; cut < LINE.length; cut += 1) expect(scan([LINE.subarray(0, cut), LINE.subarray(cut)])).toEqual(['2026-11-29T06:48:50.202Z']);
    const bytes = [...LINE].map((byte) => Buffer.from([byte]));
    expect(scan(bytes)).toEqual(['2026-11-29T06:48:50.202Z']);
  });

  test('reports once per line, and starts over on the next line', () => {
    const found: string[] = [];
    const scanner = createTimestampScanner((timestamp) => found.push(timestamp));
    scanner.push(LINE, 1);
    scanner.push(LINE, 1);
    scanner.push(Buffer.from('"timestamp":"2026-12-01T00:00:00.000Z"'), 2);
    expect(found).toEqual(['2026-11-29T06:48:50.202Z', '2026-12-01T00:00:00.000Z']);
  });

  test('a value longer than any time is given up, not gathered', () => {
    expect(scan([Buffer.from(`"timestamp":"${'9'.repeat(10_000)}"`)])).toEqual([]);
  });
});
