import { forEachLine, type LineReadOptions, type LineReadResult } from './line-reader.js';

export interface JsonLinesOptions extends Omit<LineReadOptions, 'onLineTooLong'> {
  /** A line that is not JSON, or too long to hold: reported with its number, then passed over. */
  onCorruptLine: (lineNumber: number, message: string) => void;
  /** The text a line is parsed from; default its UTF-8. A source may cut out here what it never reads. */
  decodeLine?: (line: Buffer, lineNumber: number) => string;
}

/** Calls `onRecord` with each line of a JSON Lines file parsed; blank lines are passed over. */
export async function forEachJsonLine(
  file: string,
  onRecord: (record: unknown, lineNumber: number) => void,
  options: JsonLinesOptions,
): Promise<LineReadResult> {
  return forEachLine(
    file,
    (line, lineNumber) => {
      const text = options.decodeLine === undefined ? line.toString('utf8') : options.decodeLine(line, lineNumber);
      if (text.trim() === '') return;
      let record: unknown;
      try {
        record = JSON.parse(text);
      } catch (error) {
        options.onCorruptLine(lineNumber, `not JSON: ${(error as Error).message}`);
        return;
      }
      onRecord(record, lineNumber);
    },
    {
      ...options,
      onLineTooLong: (lineNumber, bytes) => options.onCorruptLine(lineNumber, `a line of ${bytes} bytes, longer than this reader holds`),
    },
  );
}
