const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COLON = 0x3a;
export const COMMA = 0x2c;
export const OPEN_BRACE = 0x7b;
export const OPEN_BRACKET = 0x5b;

/**
 * A cursor over the first bytes of a JSON record (or a whole line), for the few shapes Claude
 * Code's records begin with. Every read returns undefined (or false) once the bytes cannot be
 * followed, and the caller then falls back on JSON.parse.
 */
export class JsonPrefixCursor {
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

  /** The end (its closing quote) of a string without escapes at the cursor; undefined for anything else. */
  private plainStringEnd(): number | undefined {
    this.skipSpace();
    if (this.bytes[this.position] !== QUOTE) return undefined;
    const end = this.bytes.indexOf(QUOTE, this.position + 1);
    if (end === -1) return undefined;
    // Only the string's own bytes: searching the rest of the prefix for a backslash, once per key, was most of the classifier's time.
    for (let index = this.position + 1; index < end; index += 1) if (this.bytes[index] === BACKSLASH) return undefined;
    return end;
  }

  /** A string without escapes (keys and the short values before `message` have none). */
  string(): string | undefined {
    const end = this.plainStringEnd();
    if (end === undefined) return undefined;
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

  /** Steps over a scalar value (a string without escapes, or a literal) without decoding it; false for anything else. */
  skipScalar(): boolean {
    this.skipSpace();
    if (this.bytes[this.position] !== QUOTE) return this.scalar() !== undefined;
    const end = this.plainStringEnd();
    if (end === undefined) return false;
    this.position = end + 1;
    return true;
  }

  key(): string | undefined {
    const key = this.string();
    return key !== undefined && this.expect(COLON) ? key : undefined;
  }

  /**
   * Steps over a string, escapes and all, without decoding it: true when its closing quote was
   * found. A quote is the string's end when an even number of backslashes stands before it.
   */
  skipString(): boolean {
    this.skipSpace();
    if (this.bytes[this.position] !== QUOTE) return false;
    let quote = this.position;
    for (;;) {
      quote = this.bytes.indexOf(QUOTE, quote + 1);
      if (quote === -1) return false;
      let backslashes = 0;
      while (this.bytes[quote - 1 - backslashes] === BACKSLASH) backslashes += 1;
      if (backslashes % 2 === 0) break;
    }
    this.position = quote + 1;
    return true;
  }

  peek(): number | undefined {
    this.skipSpace();
    return this.bytes[this.position];
  }
}
