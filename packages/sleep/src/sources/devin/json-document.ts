import { MAX_FILE_BYTES, readBoundedText } from './bounded-file.js';
import { jsonSyntaxErrorOffset } from './json-syntax-error.js';

/** A file holding one JSON document, read whole under the size cap of `readBoundedText`. */
export type JsonDocument =
  | { kind: 'parsed'; value: unknown; bytesRead: number }
  | { kind: 'too-large'; bytes: number }
  | { kind: 'corrupt'; line: number; message: string; bytesRead: number };

/** The 1-based line of a character offset. */
function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let index = text.indexOf('\n'); index !== -1 && index < offset; index = text.indexOf('\n', index + 1)) line += 1;
  return line;
}

export async function readJsonDocument(file: string, maxBytes: number = MAX_FILE_BYTES): Promise<JsonDocument> {
  const read = await readBoundedText(file, maxBytes);
  if (read.kind === 'too-large') return read;
  try {
    return { kind: 'parsed', value: JSON.parse(read.text), bytesRead: read.bytesRead };
  } catch (error) {
    const line = lineAt(read.text, jsonSyntaxErrorOffset(read.text) ?? 0);
    return { kind: 'corrupt', line, message: `not JSON: ${(error as Error).message}`, bytesRead: read.bytesRead };
  }
}
