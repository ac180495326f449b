import type { SessionBuilder } from '../../harvest/session-builder.js';

/**
 * What one parsed Claude Code transcript record adds to its session (upstream-sleep §2.1):
 * prompts, replies, tool and skill names, files, project, branch and times. Tool arguments and
 * outputs are never passed on.
 */

// A snapshot names far more files than a record keeps; the original kept the first twenty.
const MAX_SNAPSHOT_FILES = 20;

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const block of content) if (isObject(block) && block.type === 'text' && typeof block.text === 'string') texts.push(block.text);
  return texts.join('\n');
}

function addUser(record: JsonObject, message: JsonObject, builder: SessionBuilder): void {
  // Claude Code marks the texts it injects itself (command caveats, hook output) `isMeta`: not the developer's words.
  const text = record.isMeta === true ? '' : textOf(message.content);
  if (text.trim() === '') builder.time(record.timestamp);
  else builder.userPrompt(text, record.timestamp);
}

function addAssistant(record: JsonObject, message: JsonObject, builder: SessionBuilder): void {
  if (Array.isArray(message.content)) {
    for (const block of message.content) {
      if (!isObject(block) || block.type !== 'tool_use' || typeof block.name !== 'string') continue;
      builder.toolCall(block.name);
      if (block.name === 'Skill' && isObject(block.input) && typeof block.input.skill === 'string') builder.skill(block.input.skill);
    }
  }
  const text = textOf(message.content);
  builder.assistantTurn(text === '' ? undefined : text, record.timestamp);
}

function addSnapshot(record: JsonObject, builder: SessionBuilder): void {
  // The files are the keys of `snapshot.trackedFileBackups`; the original took the keys of
  // `snapshot` itself, which are `messageId`, `trackedFileBackups` and `timestamp`.
  const snapshot = isObject(record.snapshot) ? record.snapshot : undefined;
  const tracked = snapshot !== undefined && isObject(snapshot.trackedFileBackups) ? snapshot.trackedFileBackups : record.files;
  const files = Array.isArray(tracked) ? tracked.filter((file): file is string => typeof file === 'string') : isObject(tracked) ? Object.keys(tracked) : [];
  for (const file of files.slice(0, MAX_SNAPSHOT_FILES)) builder.file(file);
  builder.time(snapshot?.timestamp ?? record.timestamp);
}

export function addTranscriptRecord(record: unknown, builder: SessionBuilder): void {
  // Subagent chatter, inline in older transcripts: not the developer's exchange with the agent.
  if (!isObject(record) || record.isSidechain === true) return;
  if (typeof record.cwd === 'string') builder.project(record.cwd);
  if (typeof record.gitBranch === 'string') builder.branch(record.gitBranch);
  const message = isObject(record.message) ? record.message : undefined;
  if (record.type === 'user' && message !== undefined) addUser(record, message, builder);
  else if (record.type === 'assistant' && message !== undefined) addAssistant(record, message, builder);
  else if (record.type === 'file-history-snapshot') addSnapshot(record, builder);
  else builder.time(record.timestamp);
}
