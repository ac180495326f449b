import type { SessionBuilder } from '../../harvest/session-builder.js';
import { ownSessionReason } from '../../harvest/own-sessions.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';

/**
 * What one record of a Cursor agent transcript adds to its session (upstream-sleep §2.5): the
 * developer's request, the agent's visible replies, its tools by name, and errored turns. The
 * records carry no times; the reader takes the file's mtime instead.
 */

const QUERY_OPEN = '<user_query>';
const QUERY_CLOSE = '</user_query>';

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

/**
 * The developer's words in a Cursor prompt. Cursor wraps them as `<user_query>…</user_query>` after
 * context of its own (`<user_info>`, open files); when the text ends with such a block, the last
 * one is the request. The original cut secrets out before looking for the block, and a secret
 * written just before the closing tag (`token=abc</user_query>`) then swallowed the tag, so the
 * whole wrapper became the task. Here the block is found first; the builder cuts secrets out of
 * what is kept, and the rest is never kept.
 */
export function userQueryOf(text: string): string {
  const trimmed = text.replace(/\0/g, '').trimEnd();
  if (!trimmed.endsWith(QUERY_CLOSE)) return trimmed;
  const open = trimmed.lastIndexOf(QUERY_OPEN);
  if (open === -1) return trimmed;
  return trimmed.slice(open + QUERY_OPEN.length, trimmed.length - QUERY_CLOSE.length).trim();
}

function turnErrorDetail(record: JsonObject): string {
  const error = record.error;
  const message = asString(error) ?? asString(asObject(error)?.message) ?? asString(record.message);
  return message === undefined || message.trim() === '' ? 'a Cursor turn ended with an error' : message;
}

export function addCursorRecord(record: unknown, builder: SessionBuilder): void {
  const object = asObject(record);
  if (object === undefined) return;
  if (object.type === 'turn_ended') {
    if (object.status === 'error') builder.signal({ kind: 'turn-error', detail: turnErrorDetail(object) });
    return;
  }
  const message = asObject(object.message);
  const role = object.role ?? message?.role;
  const content = message?.content ?? object.content;
  if (role === 'user') {
    const query = userQueryOf(textOf(content));
    // Sleep's Cursor backend opens every prompt it replays with its sentinel: on any prompt of a
    // session, not only the first the builder checks, it marks the session as Sleep's own.
    if (ownSessionReason(query) === 'own-session') builder.reject('own-session');
    if (query !== '') builder.userPrompt(query);
  } else if (role === 'assistant') {
    if (Array.isArray(content)) {
      for (const block of content) {
        const tool = asObject(block);
        if (tool?.type === 'tool_use' && typeof tool.name === 'string') builder.toolCall(tool.name);
      }
    }
    const text = textOf(content);
    builder.assistantTurn(text === '' ? undefined : text);
  }
}
