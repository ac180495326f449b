/**
 * Tells from a transcript line's first bytes whether Claude Code wrote it as a tool result: a
 * `user` record whose content begins with a `tool_result` block. Those lines hold the output of
 * every command the agent ran (about four fifths of a transcript's bytes) and nothing a harvest
 * keeps but their time, so the reader lets them stream past unparsed.
 *
 * The prefix is read as far as the first content block's first key and no further. Anything it
 * does not recognise — an unknown value, an escape, a prefix cut short — answers `parse`, so a
 * line is passed over only when its shape is certain.
 */
export type PrefixVerdict = 'parse' | 'tool-result' | 'sidechain';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;

/** A cursor over the prefix; every read returns undefined once the prefix cannot be followed. */
class PrefixCursor {
  position = 0;
  constructor(private readonly bytes: Buffer) {}

  skipSpace(): void {
    while (this.position < this.bytes.length) {
      const byte = this.bytes[this.position] as number;
      if (byte !== 0x20 && byte !== 0x09 && byte !== 0x0d && byte !== 0x0a) return;
      this.position += 1;
    }
  }

  expect(byte: number): boolean {
    this.skipSpace();
    if (this.bytes[this.position] !== byte) return false;
    this.position += 1;
    return true;
  }

  /** A string without escapes (keys and the short values before `message` have none). */
  string(): string | undefined {
    this.skipSpace();
    if (this.bytes[this.position] !== QUOTE) return undefined;
    const end = this.bytes.indexOf(QUOTE, this.position + 1);
    if (end === -1) return undefined;
    // Only the string's own bytes: searching the rest of the prefix for a backslash, once per key, was most of the classifier's time.
    for (let index = this.position + 1; index < end; index += 1) if (this.bytes[index] === BACKSLASH) return undefined;
    const text = this.bytes.toString('latin1', this.position + 1, end);
    this.position = end + 1;
    return text;
  }

  /** A scalar value: a string, `true`, `false`, `null` or a number, as text; undefined for anything else. */
  scalar(): string | undefined {
    this.skipSpace();
    const byte = this.bytes[this.position];
    if (byte === QUOTE) return this.string();
    const match = /^(true|false|null|-?[0-9][0-9.eE+-]*)/.exec(this.bytes.toString('latin1', this.position, Math.min(this.position + 32, this.bytes.length)));
    if (match === null) return undefined;
    const end = this.position + (match[0] as string).length;
    // A number or word that reaches the prefix's end may go on past it.
    if (end >= this.bytes.length) return undefined;
    this.position = end;
    return match[0];
  }

  key(): string | undefined {
    const key = this.string();
    return key !== undefined && this.expect(COLON) ? key : undefined;
  }

  peek(): number | undefined {
    this.skipSpace();
    return this.bytes[this.position];
  }
}

interface MessageStart {
  role: string | undefined;
  toolResult: boolean;
}

/** Reads the `message` object as far as its content's first block; `toolResult` when that block is a tool result. */
function readMessageStart(cursor: PrefixCursor): MessageStart | undefined {
  if (!cursor.expect(OPEN_BRACE)) return undefined;
  let role: string | undefined;
  for (;;) {
    const key = cursor.key();
    if (key === undefined) return undefined;
    if (key === 'content') {
      if (!cursor.expect(OPEN_BRACKET) || !cursor.expect(OPEN_BRACE)) return { role, toolResult: false };
      const first = cursor.key();
      if (first === 'tool_use_id') return { role, toolResult: true };
      if (first === 'type') return { role, toolResult: cursor.scalar() === 'tool_result' };
      return undefined;
    }
    const value = cursor.scalar();
    if (value === undefined) return undefined;
    if (key === 'role') role = value;
    if (!cursor.expect(COMMA)) return undefined;
  }
}

export function classifyPrefix(prefix: Buffer): PrefixVerdict {
  const cursor = new PrefixCursor(prefix);
  if (!cursor.expect(OPEN_BRACE)) return 'parse';
  let type: string | undefined;
  for (;;) {
    const key = cursor.key();
    if (key === undefined) return 'parse';
    if (key === 'message') {
      if (cursor.peek() !== OPEN_BRACE) return 'parse';
      const message = readMessageStart(cursor);
      if (message === undefined || !message.toolResult) return 'parse';
      const isUser = type === 'user' || (type === undefined && message.role === 'user');
      return isUser ? 'tool-result' : 'parse';
    }
    const value = cursor.scalar();
    if (value === undefined) return 'parse';
    if (key === 'isSidechain' && value === 'true') return 'sidechain';
    if (key === 'type') type = value;
    if (!cursor.expect(COMMA)) return 'parse';
  }
}
