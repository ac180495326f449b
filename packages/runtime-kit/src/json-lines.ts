import { createLineSplitter } from './line-splitter.js';

/** A line that was not JSON. Kept and reported, because a silently dropped line hides a bug. */
export interface MalformedJsonLine {
  /** 1-based, counting blank lines too, so it matches what an editor shows. */
  lineNumber: number;
  /** The line, shortened to 200 characters. */
  text: string;
  /** Why JSON.parse refused it. */
  error: string;
}

export interface JsonLinesResult<Record = unknown> {
  records: Record[];
  malformedLines: MalformedJsonLine[];
}

export interface JsonLinesParser<Record = unknown> {
  /** The records and malformed lines among the lines `chunk` completed. */
  push(chunk: string): JsonLinesResult<Record>;
  /** The same for a last line without a trailing newline; call once, at the end. */
  end(): JsonLinesResult<Record>;
}

const MAX_REPORTED_LINE_LENGTH = 200;

/**
 * Parses JSON Lines (one JSON value per line, as agent CLIs print their transcripts) as it
 * streams in. Blank lines are skipped; anything else that is not JSON is reported with its line
 * number. Records are not checked beyond being JSON: the type parameter is the caller's claim.
 */
export function createJsonLinesParser<Record = unknown>(): JsonLinesParser<Record> {
  const splitter = createLineSplitter();
  let lineNumber = 0;

  function parseLines(lines: string[]): JsonLinesResult<Record> {
    const result: JsonLinesResult<Record> = { records: [], malformedLines: [] };
    for (const rawLine of lines) {
      lineNumber++;
      // A byte-order mark some Windows tools write would otherwise make line 1 malformed.
      const line = lineNumber === 1 ? rawLine.replace(/^\uFEFF/, '') : rawLine;
      if (line.trim() === '') continue;
      try {
        result.records.push(JSON.parse(line) as Record);
      } catch (error) {
        result.malformedLines.push({
          lineNumber,
          text: line.length > MAX_REPORTED_LINE_LENGTH ? `${line.slice(0, MAX_REPORTED_LINE_LENGTH)}…` : line,
          error: error instanceof Error ? error.message : String(error),
        });
      }
    }
    return result;
  }

  return {
    push: (chunk) => parseLines(splitter.push(chunk)),
    end: () => parseLines(splitter.end()),
  };
}

/** Parses a whole JSON Lines text at once; see createJsonLinesParser. */
export function parseJsonLines<Record = unknown>(text: string): JsonLinesResult<Record> {
  const parser = createJsonLinesParser<Record>();
  const body = parser.push(text);
  const tail = parser.end();
  return {
    records: [...body.records, ...tail.records],
    malformedLines: [...body.malformedLines, ...tail.malformedLines],
  };
}
