import type { SessionBuilder } from '../../harvest/session-builder.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';
import { messageText } from './codex-text.js';
import { createMirroredMessages, type RolloutStream } from './mirrored-messages.js';

/**
 * What the records of one Codex rollout file add to its session (upstream-sleep §2.2): the
 * developer's prompts and the agent's replies (developer and system messages are the harness's,
 * not a turn), tool names by the payload's type or name, the project, branch and times. Tool
 * arguments (`function_call.arguments`) and outputs (`*_output`, `aggregated_output`) are never
 * passed on.
 */
export interface RolloutReader {
  add(record: unknown): void;
}

/** The session id a rollout's `session_meta` record gives, if `record` is one. */
export function sessionMetaId(record: unknown): string | undefined {
  const object = asObject(record);
  if (object?.type !== 'session_meta') return undefined;
  const id = asString(asObject(object.payload)?.id)?.trim();
  return id === '' ? undefined : id;
}

/** The tool a payload records a call of, by name only. */
function toolNameOf(payload: JsonObject): string | undefined {
  const type = asString(payload.type) ?? '';
  if (type === 'exec_command_end') return 'exec_command';
  if (type === 'patch_apply_end') return 'apply_patch';
  // Everything else that is a call ends in `_call`; its result (`*_call_output`) does not.
  if (!type.endsWith('_call')) return undefined;
  const name = asString(payload.name)?.trim();
  if (name !== undefined && name !== '') return name;
  if (type.endsWith('_tool_call')) return type;
  if (type === 'function_call' || type === 'custom_tool_call') return undefined;
  // `web_search_call` → `web_search`, `local_shell_call` → `local_shell`.
  return type.slice(0, -'_call'.length);
}

/** The first time a record carries, in the order the original looked for one. */
function timeOf(record: JsonObject, payload: JsonObject): unknown {
  return payload.timestamp ?? record.timestamp ?? payload.started_at ?? payload.completed_at;
}

export function createRolloutReader(builder: SessionBuilder): RolloutReader {
  const prompts = createMirroredMessages();
  const replies = createMirroredMessages();
  // A command is recorded as the model's call and again as the UI's end event, under one call id.
  const callIds = new Set<string>();

  const prompt = (stream: RolloutStream, text: string, time: unknown) => {
    if (text !== '' && !prompts.isMirror(stream, text)) builder.userPrompt(text, time);
  };
  const reply = (stream: RolloutStream, text: string, time: unknown) => {
    if (text !== '' && !replies.isMirror(stream, text)) builder.assistantTurn(text, time);
  };
  const toolCall = (payload: JsonObject) => {
    const name = toolNameOf(payload);
    if (name === undefined) return;
    const callId = asString(payload.call_id);
    if (callId !== undefined) {
      if (callIds.has(callId)) return;
      callIds.add(callId);
    }
    builder.toolCall(name);
  };
  const patchedFiles = (payload: JsonObject) => {
    const changes = asObject(payload.changes);
    if (changes !== undefined) for (const file of Object.keys(changes)) builder.file(file);
  };

  return {
    add(record) {
      const object = asObject(record);
      if (object === undefined) return;
      // The oldest rollouts wrote each item bare, without the `{timestamp, type, payload}` envelope.
      const payload = asObject(object.payload) ?? object;
      const time = timeOf(object, payload);
      builder.time(time);
      if (typeof payload.cwd === 'string') builder.project(payload.cwd);
      if (object.type === 'session_meta') builder.branch(asString(asObject(payload.git)?.branch));
      switch (payload.type) {
        case 'message':
          if (payload.role === 'user') prompt('history', messageText(payload.content), time);
          else if (payload.role === 'assistant') reply('history', messageText(payload.content), time);
          return;
        case 'user_message':
          prompt('events', messageText(payload.message), time);
          return;
        case 'agent_message':
          reply('events', messageText(payload.message), time);
          return;
        case 'error':
          builder.signal({ kind: 'turn-error', detail: asString(payload.message) ?? 'the turn ended in an error' });
          return;
        case 'patch_apply_begin':
        case 'patch_apply_end':
          patchedFiles(payload);
          toolCall(payload);
          return;
        default:
          // Current versions also send `item_completed` events: copies of the history's items, left unread.
          toolCall(payload);
      }
    },
  };
}
