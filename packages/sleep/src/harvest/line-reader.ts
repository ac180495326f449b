import { open } from 'node:fs/promises';

/**
 * A file's lines, streamed in fixed-size chunks so memory stays flat however large the file is.
 * A caller that can tell from a line's first bytes that it will not use the line (most of a Claude
 * Code transcript is tool output it never reads) says so in `keep`; the rest of that line then
 * streams past `onSkippedBytes` without being gathered, decoded or parsed.
 */
export interface LineReadOptions {
  /** Bytes read per call; default 1 MiB. */
  chunkBytes?: number;
  /** How many leading bytes `keep` is shown (fewer when the line is shorter). */
  prefixBytes?: number;
  /** Whether to gather the line whose first bytes are `prefix`; default: every line. */
  keep?: (prefix: Buffer, lineNumber: number) => boolean;
  /** The bytes of a line `keep` declined, chunk by chunk as they stream past. */
  onSkippedBytes?: (bytes: Buffer, lineNumber: number) => void;
  /** A gathered line longer than this is not passed on but reported; default 64 MiB. */
  maxLineBytes?: number;
  onLineTooLong?: (lineNumber: number, bytes: number) => void;
  signal?: AbortSignal | undefined;
}

export interface LineReadResult {
  bytesRead: number;
  lines: number;
}

const DEFAULT_CHUNK_BYTES = 1 << 20;
const DEFAULT_MAX_LINE_BYTES = 64 << 20;

/**
 * Calls `onLine` with each line (without its `\n` or `\r\n`), in order, numbered from 1. The
 * buffer passed is valid during the call only.
 */
export async function forEachLine(file: string, onLine: (line: Buffer, lineNumber: number) => void, options: LineReadOptions = {}): Promise<LineReadResult> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const prefixBytes = options.keep === undefined ? 0 : (options.prefixBytes ?? 256);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const handle = await open(file, 'r');
  let parts: Buffer[] = [];
  let gathered = 0;
  // undefined: not yet decided (fewer than prefixBytes seen); 'keep', 'skip', or 'too-long'.
  let decision: 'keep' | 'skip' | 'too-long' | undefined = options.keep === undefined ? 'keep' : undefined;
  let lineNumber = 1;
  let bytesRead = 0;
  let lineBytes = 0;

  const decide = (complete: boolean) => {
    if (decision !== undefined || (!complete && gathered < prefixBytes)) return;
    const prefix = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, gathered);
    parts = [prefix];
    if (options.keep?.(prefix.subarray(0, prefixBytes), lineNumber) === false) {
      decision = 'skip';
      options.onSkippedBytes?.(prefix, lineNumber);
      parts = [];
      gathered = 0;
    } else decision = 'keep';
  };
  const take = (segment: Buffer) => {
    lineBytes += segment.length;
    if (decision === 'skip') {
      options.onSkippedBytes?.(segment, lineNumber);
      return;
    }
    if (decision === 'too-long') return;
    parts.push(segment);
    gathered += segment.length;
    if (gathered > maxLineBytes) {
      decision = 'too-long';
      parts = [];
      gathered = 0;
    }
  };
  const endLine = () => {
    decide(true);
    if (decision === 'keep') {
      let line = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, gathered);
      if (line.length > 0 && line[line.length - 1] === 13) line = line.subarray(0, line.length - 1);
      onLine(line, lineNumber);
    } else if (decision === 'too-long') options.onLineTooLong?.(lineNumber, lineBytes);
    parts = [];
    gathered = 0;
    lineBytes = 0;
    decision = options.keep === undefined ? 'keep' : undefined;
    lineNumber += 1;
  };

  try {
    for (;;) {
      options.signal?.throwIfAborted();
      const chunk = Buffer.allocUnsafe(chunkBytes);
      const { bytesRead: count } = await handle.read(chunk, 0, chunkBytes, null);
      if (count === 0) break;
      bytesRead += count;
      let position = 0;
      while (position < count) {
        const newline = chunk.indexOf(10, position);
        const end = newline === -1 || newline >= count ? count : newline;
        if (end > position) {
          take(chunk.subarray(position, end));
          decide(false);
        }
        if (end === count) break;
        endLine();
        position = end + 1;
      }
    }
    if (lineBytes > 0 || parts.length > 0) endLine();
    return { bytesRead, lines: lineNumber - 1 };
  } finally {
    await handle.close();
  }
}
