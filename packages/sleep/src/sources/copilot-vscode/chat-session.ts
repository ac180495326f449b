import { isMetaPrompt } from '../../harvest/meta-prompt.js';
import type { SessionBuilder } from '../../harvest/session-builder.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';

/**
 * What a harvest takes from one replayed VS Code chat session (upstream-sleep §2.3): the requests
 * Copilot Chat answered at the developer's asking — their prompt, the visible reply, the names of
 * the tools invoked. Thinking parts, `toolSpecificData`, `resultDetails` and `result` (rendered
 * context, tool results) are never looked at.
 */

const COPILOT_CHAT_EXTENSION = 'github.copilot-chat';

/** The extension that answered, lower-cased: VS Code writes it as a string or as `{ value, _lower }`. */
function extensionOf(request: JsonObject): string | undefined {
  const extension = asObject(request.agent)?.extensionId;
  if (typeof extension === 'string') return extension.toLowerCase();
  const identifier = asObject(extension);
  return (asString(identifier?._lower) ?? asString(identifier?.value))?.toLowerCase();
}

function markdownText(part: JsonObject): string | undefined {
  const value = part.value;
  if (typeof value === 'string') return value;
  return asString(asObject(value)?.value);
}

function addRequest(request: JsonObject, builder: SessionBuilder): void {
  if (extensionOf(request) !== COPILOT_CHAT_EXTENSION || request.isSystemInitiated === true) return;
  const prompt = asString(asObject(request.message)?.text);
  // A request whose prompt is no request of the developer's (a context wrapper, a slash command)
  // is passed over whole: its reply must not stand as the reply to the prompt before it.
  if (prompt === undefined || isMetaPrompt(prompt)) return;
  builder.userPrompt(prompt, request.timestamp);
  const texts: string[] = [];
  const tools: string[] = [];
  for (const item of Array.isArray(request.response) ? request.response : []) {
    const part = asObject(item);
    if (part === undefined) continue;
    if (part.kind === undefined || part.kind === 'markdownContent') {
      const text = markdownText(part);
      if (text !== undefined) texts.push(text);
    } else if (part.kind === 'toolInvocationSerialized') {
      const tool = asString(part.toolId);
      if (tool !== undefined) tools.push(tool);
    }
  }
  builder.assistantTurn(texts.join(''), asObject(request.modelState)?.completedAt);
  for (const tool of tools) builder.toolCall(tool);
}

/** Feeds a replayed session object into `builder`: its creation time and the requests it keeps. */
export function addChatSession(session: unknown, builder: SessionBuilder): void {
  const object = asObject(session);
  if (object === undefined) return;
  builder.time(object.creationDate);
  for (const request of Array.isArray(object.requests) ? object.requests : []) {
    const requestObject = asObject(request);
    if (requestObject !== undefined) addRequest(requestObject, builder);
  }
}

/** The id a replayed session gives itself, if any. */
export function chatSessionId(session: unknown): string | undefined {
  const id = asString(asObject(session)?.sessionId);
  return id === undefined || id.trim() === '' ? undefined : id.trim();
}
