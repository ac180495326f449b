import { type FileHandle, open } from 'node:fs/promises';

/**
 * A file's lines, streamed in fixed-size chunks so memory stays flat however large the file is.
 * A caller that can tell from a line's first bytes that it will not use the line (most of a Claude
 * Code transcript is tool output it never reads) says so in `keep`; the rest of that line then
 * streams past `onSkippedBytes` without being gathered, decoded or parsed.
 */
export interface LineReadOptions {
  /** Bytes read per call; default 512 KiB. */
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

const DEFAULT_CHUNK_BYTES = 512 << 10;
const DEFAULT_MAX_LINE_BYTES = 64 << 20;
const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;
// Where a line that crosses a chunk's end is gathered; grown (by doubling) only for longer lines.
const INITIAL_CARRY_BYTES = 64 << 10;
// Read buffers of the default size are handed from one file to the next instead of left to the
// collector: a fresh megabyte per read was most of the reader's share of the peak memory.
const SPARE_BUFFER_LIMIT = 8;
// Chunks read or being read ahead of the one being split: two reads under way while a chunk is split.
const READS_AHEAD = 3;
const spareBuffers: Buffer[] = [];

function takeBuffer(bytes: number): Buffer {
  if (bytes === DEFAULT_CHUNK_BYTES) {
    const spare = spareBuffers.pop();
    if (spare !== undefined) return spare;
  }
  return Buffer.allocUnsafe(bytes);
}

function returnBuffer(buffer: Buffer): void {
  if (buffer.length === DEFAULT_CHUNK_BYTES && spareBuffers.length < SPARE_BUFFER_LIMIT) spareBuffers.push(buffer);
}

function withoutCarriageReturn(line: Buffer): Buffer {
  return line.length > 0 && line[line.length - 1] === CARRIAGE_RETURN ? line.subarray(0, line.length - 1) : line;
}

/**
 * Calls `onLine` with each line (without its `\n` or `\r\n`), in order, numbered from 1. The
 * buffer passed is valid during the call only.
 *
 * Read buffers take turns: while one chunk is split into lines, the next ones are already being
 * read, each at its own offset, so the wait for the file system overlaps the work. A line that lies whole
 * in a chunk is passed on as a view of it, without a copy; only a line that crosses a chunk's end
 * is gathered, into one buffer reused for every such line.
 */
export async function forEachLine(file: string, onLine: (line: Buffer, lineNumber: number) => void, options: LineReadOptions = {}): Promise<LineReadResult> {
  const chunkBytes = options.chunkBytes ?? DEFAULT_CHUNK_BYTES;
  const keep = options.keep;
  const onSkippedBytes = options.onSkippedBytes;
  const prefixBytes = keep === undefined ? 0 : (options.prefixBytes ?? 256);
  const maxLineBytes = options.maxLineBytes ?? DEFAULT_MAX_LINE_BYTES;
  const initialDecision = keep === undefined ? 'keep' : undefined;

  // undefined: not yet decided (fewer than prefixBytes seen); 'keep', 'skip', or 'too-long'.
  let decision: 'keep' | 'skip' | 'too-long' | undefined = initialDecision;
  let lineNumber = 1;
  let lineBytes = 0;
  let carry: Buffer | undefined;
  let carried = 0;

  const gather = (bytes: Buffer) => {
    if (carried + bytes.length > maxLineBytes) {
      decision = 'too-long';
      carried = 0;
      return;
    }
    if (carry === undefined || carry.length < carried + bytes.length) {
      const grown = Buffer.allocUnsafe(Math.max(INITIAL_CARRY_BYTES, 2 * (carry?.length ?? 0), carried + bytes.length));
      carry?.copy(grown, 0, 0, carried);
      carry = grown;
    }
    bytes.copy(carry, carried);
    carried += bytes.length;
  };
  const decide = (prefix: Buffer) => {
    decision = keep?.(prefix.subarray(0, prefixBytes), lineNumber) === false ? 'skip' : 'keep';
  };
  const nextLine = () => {
    decision = initialDecision;
    lineBytes = 0;
    carried = 0;
    lineNumber += 1;
  };
  /** Bytes of the current line, not its end, with part of it possibly gathered already. */
  const continueLine = (bytes: Buffer) => {
    lineBytes += bytes.length;
    let rest = bytes;
    if (decision === undefined) {
      const head = rest.subarray(0, prefixBytes - carried);
      gather(head);
      rest = rest.subarray(head.length);
      if (carried < prefixBytes) return;
      decide((carry as Buffer).subarray(0, carried));
      if (decision === 'skip') {
        onSkippedBytes?.((carry as Buffer).subarray(0, carried), lineNumber);
        carried = 0;
      }
    }
    if (rest.length === 0) return;
    if (decision === 'skip') onSkippedBytes?.(rest, lineNumber);
    else if (decision === 'keep') gather(rest);
  };
  const endLine = () => {
    if (decision === undefined) {
      decide(carry === undefined ? Buffer.alloc(0) : carry.subarray(0, carried));
      if (decision === 'skip' && carried > 0) onSkippedBytes?.((carry as Buffer).subarray(0, carried), lineNumber);
    }
    if (decision === 'keep') onLine(withoutCarriageReturn(carry === undefined ? Buffer.alloc(0) : carry.subarray(0, carried)), lineNumber);
    else if (decision === 'too-long') options.onLineTooLong?.(lineNumber, lineBytes);
    nextLine();
  };
  /** A whole line inside one chunk, nothing of it seen before: passed on as a view. */
  const wholeLine = (line: Buffer) => {
    if (keep !== undefined) decide(line);
    if (decision === 'skip') onSkippedBytes?.(line, lineNumber);
    else if (line.length > maxLineBytes) options.onLineTooLong?.(lineNumber, line.length);
    else onLine(withoutCarriageReturn(line), lineNumber);
    nextLine();
  };
  const splitChunk = (chunk: Buffer) => {
    let position = 0;
    while (position < chunk.length) {
      const newline = chunk.indexOf(NEWLINE, position);
      if (newline === -1) {
        continueLine(chunk.subarray(position));
        return;
      }
      if (lineBytes === 0) wholeLine(chunk.subarray(position, newline));
      else {
        continueLine(chunk.subarray(position, newline));
        endLine();
      }
      position = newline + 1;
    }
  };

  const handle = await open(file, 'r');
  // Reads under way, oldest first, each at its own offset so they can run side by side.
  const reads: Array<{ buffer: Buffer; offset: number; done: ReturnType<FileHandle['read']> }> = [];
  let nextOffset = 0;
  const startRead = (buffer: Buffer) => {
    reads.push({ buffer, offset: nextOffset, done: handle.read(buffer, 0, chunkBytes, nextOffset) });
    nextOffset += chunkBytes;
  };
  let bytesRead = 0;
  try {
    for (let index = 0; index < READS_AHEAD; index += 1) startRead(takeBuffer(chunkBytes));
    for (;;) {
      options.signal?.throwIfAborted();
      const read = reads.shift() as (typeof reads)[number];
      const { bytesRead: count } = await read.done;
      if (count === 0) {
        returnBuffer(read.buffer);
        break;
      }
      bytesRead += count;
      if (count < chunkBytes) {
        // A short read: the file ends here, or grew or was cut while being read. The reads after
        // it assumed a full chunk; they are dropped and reading goes on from where this one ended.
        for (const later of reads.splice(0)) {
          await later.done.catch(() => undefined);
          returnBuffer(later.buffer);
        }
        nextOffset = read.offset + count;
        for (let index = 1; index < READS_AHEAD; index += 1) startRead(takeBuffer(chunkBytes));
      }
      splitChunk(read.buffer.subarray(0, count));
      startRead(read.buffer);
    }
    if (lineBytes > 0) endLine();
    return { bytesRead, lines: lineNumber - 1 };
  } finally {
    // A read still under way owns its buffer and the handle: let it finish before both go.
    for (const read of reads) {
      await read.done.catch(() => undefined);
      returnBuffer(read.buffer);
    }
    await handle.close();
  }
}
