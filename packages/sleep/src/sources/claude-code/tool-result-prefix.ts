import { COMMA, JsonPrefixCursor, OPEN_BRACE, OPEN_BRACKET } from './json-prefix-cursor.js';

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
  contentStart: number | undefined;
}

/** Reads the `message` object as far as its content's first block; `toolResult` when that block is a tool result. */
function readMessageStart(cursor: JsonPrefixCursor): MessageStart | undefined {
  if (!cursor.expect(OPEN_BRACE)) return undefined;
  let role: string | undefined;
  for (;;) {
    const key = cursor.key();
    if (key === undefined) return undefined;
    if (key === 'content') {
      if (!cursor.expect(OPEN_BRACKET)) return { role, toolResult: false, contentStart: undefined };
      const contentStart = cursor.position;
      if (!cursor.expect(OPEN_BRACE)) return { role, toolResult: false, contentStart };
      const first = cursor.key();
      if (first === 'tool_use_id') return { role, toolResult: true, contentStart };
      if (first === 'type') return { role, toolResult: cursor.scalar() === 'tool_result', contentStart };
      return { role, toolResult: false, contentStart };
    }
    if (key === 'role') {
      role = cursor.scalar();
      if (role === undefined) return undefined;
    } else if (!cursor.skipScalar()) return undefined;
    if (!cursor.expect(COMMA)) return undefined;
  }
}

export interface TranscriptPrefix {
  verdict: PrefixVerdict;
  /** Where the message's content array begins (just past its `[`), when the prefix reaches it. */
  contentStart: number | undefined;
}

const PARSE: TranscriptPrefix = { verdict: 'parse', contentStart: undefined };

/** What a line's first bytes tell: its verdict, and where its message's content begins. */
export function readTranscriptPrefix(prefix: Buffer): TranscriptPrefix {
  const cursor = new JsonPrefixCursor(prefix);
  if (!cursor.expect(OPEN_BRACE)) return PARSE;
  let type: string | undefined;
  for (;;) {
    const key = cursor.key();
    if (key === undefined) return PARSE;
    if (key === 'message') {
      if (cursor.peek() !== OPEN_BRACE) return PARSE;
      const message = readMessageStart(cursor);
      if (message === undefined) return PARSE;
      const isUser = type === 'user' || (type === undefined && message.role === 'user');
      return { verdict: message.toolResult && isUser ? 'tool-result' : 'parse', contentStart: message.contentStart };
    }
    if (key === 'isSidechain' || key === 'type') {
      const value = cursor.scalar();
      if (value === undefined) return PARSE;
      if (key === 'isSidechain' && value === 'true') return { verdict: 'sidechain', contentStart: undefined };
      if (key === 'type') type = value;
    } else if (!cursor.skipScalar()) return PARSE;
    if (!cursor.expect(COMMA)) return PARSE;
  }
}

export function classifyPrefix(prefix: Buffer): PrefixVerdict {
  return readTranscriptPrefix(prefix).verdict;
}
