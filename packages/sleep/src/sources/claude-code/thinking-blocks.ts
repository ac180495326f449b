import { COMMA, JsonPrefixCursor, OPEN_BRACE, OPEN_BRACKET } from './json-prefix-cursor.js';

/**
 * Claude Code records an assistant's extended thinking as `thinking` blocks (the reasoning and a
 * signature, often kilobytes of both; `redacted_thinking` when the provider withholds it) at the
 * start of the message's content. A harvest keeps nothing of them, so they are cut out of the
 * line before it is decoded and parsed: an assistant line then costs JSON.parse only its reply
 * and tool calls. A block is cut only when its shape is certain — `{"type":"thinking", …}` with
 * nothing but strings in it, followed by `,` or `]`; anything else leaves the line whole, for
 * JSON.parse to read or to report as corrupt.
 */

const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const THINKING_TYPES = new Set(['thinking', 'redacted_thinking']);

/** Steps over the scalar members of an object up to the key `wanted`; false when another shape comes first. */
function advanceToKey(cursor: JsonPrefixCursor, wanted: string): boolean {
  if (!cursor.expect(OPEN_BRACE)) return false;
  for (;;) {
    const key = cursor.key();
    if (key === undefined) return false;
    if (key === wanted) return true;
    if (!cursor.skipScalar() || !cursor.expect(COMMA)) return false;
  }
}

/** Steps over one thinking block; false (the cursor then anywhere) when the block is not one, or not certainly. */
function skipThinkingBlock(cursor: JsonPrefixCursor): boolean {
  if (!cursor.expect(OPEN_BRACE) || cursor.key() !== 'type') return false;
  const type = cursor.string();
  if (type === undefined || !THINKING_TYPES.has(type)) return false;
  for (;;) {
    if (cursor.expect(CLOSE_BRACE)) return true;
    if (!cursor.expect(COMMA) || cursor.key() === undefined || !cursor.skipString()) return false;
  }
}

/**
 * The bytes of the content's leading thinking blocks (with the comma after them), or undefined
 * when there are none. `contentStart`, when the line's prefix was read already, is where the
 * content array's first block may begin.
 */
export function leadingThinkingBlocks(line: Buffer, contentStart?: number): { start: number; end: number } | undefined {
  const cursor = new JsonPrefixCursor(line);
  if (contentStart !== undefined) cursor.position = contentStart;
  else if (!advanceToKey(cursor, 'message') || !advanceToKey(cursor, 'content') || !cursor.expect(OPEN_BRACKET)) return undefined;
  cursor.skipSpace();
  const start = cursor.position;
  let end = start;
  while (skipThinkingBlock(cursor)) {
    if (cursor.expect(COMMA)) {
      cursor.skipSpace();
      end = cursor.position;
      continue;
    }
    // The last block: the cut ends at the array's `]`, which stays. Anything else is not JSON.
    if (cursor.peek() === CLOSE_BRACKET) end = cursor.position;
    break;
  }
  return end > start ? { start, end } : undefined;
}

/** A transcript line as the text to parse, its leading thinking blocks cut out. */
export function decodeWithoutThinking(line: Buffer, contentStart?: number): string {
  const blocks = leadingThinkingBlocks(line, contentStart);
  // Both cuts fall on ASCII punctuation, so neither splits a UTF-8 sequence.
  return blocks === undefined ? line.toString('utf8') : line.toString('utf8', 0, blocks.start) + line.toString('utf8', blocks.end);
}
