import { COLON, COMMA, JsonPrefixCursor, OPEN_BRACE, OPEN_BRACKET } from './json-prefix-cursor.js';

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

interface MessageStart {
  role: string | undefined;
  toolResult: boolean;
}

/** Reads the `message` object as far as its content's first block; `toolResult` when that block is a tool result. */
function readMessageStart(cursor: JsonPrefixCursor): MessageStart | undefined {
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
  const cursor = new JsonPrefixCursor(prefix);
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
