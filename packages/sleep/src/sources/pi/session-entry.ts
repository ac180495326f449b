import type { SessionBuilder } from '../../harvest/session-builder.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';

/**
 * What one entry of a Pi session adds to its record (upstream-sleep §2.6): the developer's prompts,
 * the agent's visible replies and the names of the tools it called. Thinking blocks, tool
 * arguments and tool output are never passed on; entries of other kinds (model changes,
 * compaction summaries, labels) give only their time.
 */

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) {
    const object = asObject(block);
    if (object?.type === 'text' && typeof object.text === 'string') texts.push(object.text);
  }
  return texts.join('\n');
}

/** The tool calls of one session seen so far, by the id a tool result answers. */
export type SeenToolCalls = Set<string>;

function addAssistant(message: JsonObject, timestamp: unknown, builder: SessionBuilder, seen: SeenToolCalls): void {
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      const object = asObject(block);
      if (object?.type !== 'toolCall' || typeof object.name !== 'string') continue;
      builder.toolCall(object.name);
      if (typeof object.id === 'string') seen.add(object.id);
    }
  }
  const text = textOf(message.content);
  builder.assistantTurn(text === '' ? undefined : text, timestamp);
}

function addToolResult(message: JsonObject, timestamp: unknown, builder: SessionBuilder, seen: SeenToolCalls): void {
  builder.time(timestamp);
  // A result normally answers a call already counted; only one whose call is not in the
  // conversation (compacted away) adds its tool. `isError` is not read: a failed command is not a
  // failed session.
  const callId = asString(message.toolCallId);
  const name = asString(message.toolName);
  if (name !== undefined && (callId === undefined || !seen.has(callId))) builder.toolCall(name);
}

export function addPiEntry(entry: JsonObject, builder: SessionBuilder, seen: SeenToolCalls): void {
  const message = entry.type === 'message' ? asObject(entry.message) : undefined;
  const timestamp = entry.timestamp ?? message?.timestamp;
  if (message === undefined) {
    builder.time(timestamp);
    return;
  }
  if (message.role === 'user') {
    const text = textOf(message.content);
    if (text.trim() === '') builder.time(timestamp);
    else builder.userPrompt(text, timestamp);
  } else if (message.role === 'assistant') addAssistant(message, timestamp, builder, seen);
  else if (message.role === 'toolResult') addToolResult(message, timestamp, builder, seen);
  else builder.time(timestamp);
}
