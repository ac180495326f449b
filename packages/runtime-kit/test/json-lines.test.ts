import { createJsonLinesParser, createLineSplitter, parseJsonLines } from '../src/index';

describe('parseJsonLines', () => {
  it('returns the records and reports each malformed line with its line number', () => {
    const text = ['{"type":"start"}', '', '{"type":"message","text":"hi"}', '{"type": oops}', 'plain text', '{"type":"end"}'].join('\n');
    const { records, malformedLines } = parseJsonLines<{ type: string }>(text);
    expect(records.map((record) => record.type)).toEqual(['start', 'message', 'end']);
    expect(malformedLines.map(({ lineNumber, text: line }) => ({ lineNumber, line }))).toEqual([
      { lineNumber: 4, line: '{"type": oops}' },
      { lineNumber: 5, line: 'plain text' },
    ]);
    expect(malformedLines[0]?.error).toMatch(/JSON/);
  });

  it('handles CRLF, a byte-order mark and a last line without a newline', () => {
    const { records, malformedLines } = parseJsonLines('\uFEFF{"a":1}\r\n{"a":2}\r\n{"a":3}');
    expect(records).toEqual([{ a: 1 }, { a: 2 }, { a: 3 }]);
    expect(malformedLines).toEqual([]);
  });

  it('reports a truncated last line instead of dropping it', () => {
    const { records, malformedLines } = parseJsonLines('{"a":1}\n{"a":');
    expect(records).toEqual([{ a: 1 }]);
    expect(malformedLines).toMatchObject([{ lineNumber: 2, text: '{"a":' }]);
  });

  it('shortens a long malformed line in the report', () => {
    const { malformedLines } = parseJsonLines(`not json ${'x'.repeat(1000)}`);
    expect(malformedLines[0]?.text.length).toBeLessThanOrEqual(201);
  });
});

describe('createJsonLinesParser', () => {
  it('parses records split across chunks and keeps counting lines across them', () => {
    const parser = createJsonLinesParser();
    expect(parser.push('{"n":1}\n{"n"')).toEqual({ records: [{ n: 1 }], malformedLines: [] });
    expect(parser.push(':2}\nbroken\n')).toEqual({
      records: [{ n: 2 }],
      malformedLines: [expect.objectContaining({ lineNumber: 3, text: 'broken' })],
    });
    expect(parser.push('{"n":3}')).toEqual({ records: [], malformedLines: [] });
    expect(parser.end()).toEqual({ records: [{ n: 3 }], malformedLines: [] });
  });
});

describe('createLineSplitter', () => {
  it('holds back an unfinished line until its newline arrives', () => {
    const splitter = createLineSplitter();
    expect(splitter.push('one\ntw')).toEqual(['one']);
    expect(splitter.push('o\r\nthree')).toEqual(['two']);
    expect(splitter.end()).toEqual(['three']);
    expect(splitter.end()).toEqual([]);
  });
});
