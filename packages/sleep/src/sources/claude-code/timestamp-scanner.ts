/**
 * Finds the `"timestamp":"…"` of a line that streams past unparsed, chunk by chunk, without
 * gathering the line: each chunk is searched with `Buffer.indexOf`, the few bytes that could hold
 * the start of a key cut by a chunk's end are carried to the next, and the value (an ISO time,
 * a few dozen bytes) is collected into a small fixed buffer.
 *
 * In Claude Code's record layout the top-level `timestamp` comes right after `uuid`, before the
 * tool's output in `toolUseResult`; inside a JSON string every quote is escaped, so the needle
 * cannot match text of the output. The first match is the record's own time.
 */
const NEEDLE = Buffer.from('"timestamp":"', 'latin1');
const QUOTE = 0x22;
// Longer than any ISO time with a zone and fraction; a longer value is not a time.
const MAX_VALUE_BYTES = 48;

export interface TimestampScanner {
  /** The next bytes of line `lineNumber`; a new line number starts a new search. */
  push(bytes: Buffer, lineNumber: number): void;
}

export function createTimestampScanner(onTimestamp: (timestamp: string) => void): TimestampScanner {
  let line = -1;
  // 'key': looking for the needle; 'value': collecting the time; 'done': found or given up.
  let state: 'key' | 'value' | 'done' = 'done';
  const carry = Buffer.alloc(NEEDLE.length * 2);
  let carried = 0;
  const value = Buffer.alloc(MAX_VALUE_BYTES);
  let valueLength = 0;

  const collect = (bytes: Buffer, from: number) => {
    const end = bytes.indexOf(QUOTE, from);
    const stop = end === -1 ? bytes.length : end;
    if (valueLength + stop - from > MAX_VALUE_BYTES) {
      state = 'done';
      return;
    }
    bytes.copy(value, valueLength, from, stop);
    valueLength += stop - from;
    if (end !== -1) {
      state = 'done';
      onTimestamp(value.toString('latin1', 0, valueLength));
    }
  };

  return {
    push(bytes, lineNumber) {
      if (lineNumber !== line) {
        line = lineNumber;
        state = 'key';
        carried = 0;
        valueLength = 0;
      }
      if (state === 'done' || bytes.length === 0) return;
      if (state === 'value') {
        collect(bytes, 0);
        return;
      }
      const keep = NEEDLE.length - 1;
      let joined: Buffer | undefined;
      if (carried > 0) {
        // The needle may straddle the previous chunk's end: search the carried bytes joined to this chunk's start.
        const head = Math.min(bytes.length, keep);
        bytes.copy(carry, carried, 0, head);
        joined = carry.subarray(0, carried + head);
        const found = joined.indexOf(NEEDLE);
        if (found !== -1) {
          state = 'value';
          collect(bytes, found + NEEDLE.length - carried);
          return;
        }
      }
      const found = bytes.indexOf(NEEDLE);
      if (found !== -1) {
        state = 'value';
        collect(bytes, found + NEEDLE.length);
        return;
      }
      // Carry the last bytes seen, which for a chunk shorter than the needle include earlier ones.
      const tail = bytes.length >= keep || joined === undefined ? bytes : joined;
      carried = Math.min(tail.length, keep);
      tail.copy(carry, 0, tail.length - carried);
    },
  };
}
