import path from 'node:path';
import { isInScope } from '../harvest/project-scope.js';
import type { SessionBuilder } from '../harvest/session-builder.js';
import type { HarvestedSession } from '../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../harvest/session-source.js';
import { openReadOnlyDatabase, type ReadOnlyDatabase } from '../sqlite/read-only-database.js';
import { asObject, asString, type JsonObject, parseJsonObject } from './json-fields.js';

/**
 * OpenCode keeps every session in one SQLite database (`opencode.db`): a `session` row each, its
 * `message` rows, and each message's `part` rows, with the content as JSON in `data`
 * (upstream-sleep §2.7). Only root sessions are the developer's: a child session is a subagent
 * the root one started.
 */

const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  session: ['id', 'parent_id', 'directory', 'agent', 'time_created', 'time_updated'],
  message: ['id', 'session_id', 'time_created', 'data'],
  part: ['id', 'message_id', 'session_id', 'time_created', 'data'],
};

// The agent name SkillOpt's OpenCode backend gives its own calls: they are not the developer's work.
const OWN_AGENT_NAME = /^skillopt-sleep-[0-9a-f]{32}$/i;

function missingSchema(database: ReadOnlyDatabase): string | undefined {
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    const present = database.columnsOf(table);
    const absent = columns.filter((column) => !present.has(column));
    if (present.size === 0) return `no "${table}" table`;
    if (absent.length > 0) return `the "${table}" table has no ${absent.map((column) => `"${column}"`).join(', ')}`;
  }
  return undefined;
}

function isPositiveTime(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value > 0;
}

/** The visible text of a message's parts: text parts OpenCode neither made up nor set aside. */
function partText(part: JsonObject): string | undefined {
  if (part.type !== 'text' || part.synthetic === true || part.ignored === true) return undefined;
  return asString(part.text);
}

function partToolName(part: JsonObject): string | undefined {
  if (part.type === 'tool') return asString(part.tool);
  // Older databases wrote a tool call as one `tool-invocation` part.
  if (part.type === 'tool-invocation') return asString(asObject(part.toolInvocation)?.toolName);
  return undefined;
}

function errorDetail(error: unknown): string {
  const object = asObject(error);
  if (object === undefined) return typeof error === 'string' ? error : 'the message ended in an error';
  const message = asString(asObject(object.data)?.message) ?? asString(object.message);
  const name = asString(object.name);
  return [name, message].filter((text) => text !== undefined && text !== '').join(': ') || 'the message ended in an error';
}

function readMessages(database: ReadOnlyDatabase, sessionId: string, builder: SessionBuilder, context: SourceContext): void {
  const file = database.file;
  for (const message of database.rows('SELECT rowid, id, time_created, data FROM message WHERE session_id = ? ORDER BY time_created, id', [sessionId])) {
    const data = parseJsonObject(message.data);
    // A corrupt row is reported and passed over; the rest of the session is still read. (The
    // original dropped the whole session for one bad row.)
    if (data === undefined) {
      context.report.corruptLine(file, Number(message.rowid), `message ${String(message.id)} of session ${sessionId}: its data is not a JSON object`);
      continue;
    }
    const role = data.role;
    if (role !== 'user' && role !== 'assistant') continue;
    const texts: string[] = [];
    const tools: string[] = [];
    for (const partRow of database.rows('SELECT rowid, id, data FROM part WHERE message_id = ? ORDER BY time_created, id', [String(message.id)])) {
      const part = parseJsonObject(partRow.data);
      if (part === undefined) {
        context.report.corruptLine(file, Number(partRow.rowid), `part ${String(partRow.id)} of session ${sessionId}: its data is not a JSON object`);
        continue;
      }
      const text = partText(part);
      if (text !== undefined) texts.push(text);
      const tool = role === 'assistant' ? partToolName(part) : undefined;
      if (tool !== undefined) tools.push(tool);
    }
    const time = message.time_created;
    if (role === 'user') {
      builder.userPrompt(texts.join('\n'), time);
      continue;
    }
    builder.assistantTurn(texts.join('\n'), time);
    builder.time(asObject(data.time)?.completed);
    for (const tool of tools) builder.toolCall(tool);
    if (data.error !== undefined && data.error !== null) builder.signal({ kind: 'turn-error', detail: errorDetail(data.error) });
  }
}

async function* readOpencode(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const file = context.locations.opencodeDatabase;
  // OpenCode's `:memory:` database lives and dies with its process: nothing is kept to harvest.
  if (path.basename(file) === ':memory:') return;
  const opening = await openReadOnlyDatabase(file, { signal: context.signal });
  if (opening.kind === 'missing') return context.locationMissing(file);
  if (opening.kind === 'unreadable') return context.locationUnreadable(file, opening.error);
  const database = opening.database;
  try {
    const schemaProblem = missingSchema(database);
    if (schemaProblem !== undefined) return context.locationUnreadable(file, new Error(`not an OpenCode database: ${schemaProblem}`));
    context.report.looked(file);
    context.report.bytesRead(database.bytesRead);
    const hasMetadata = database.columnsOf('session').has('metadata');
    const start = context.window.earliestStart;
    // The window is applied in SQL on the session's last update, in epoch milliseconds (the
    // original compared days as text). The sessions it leaves out are counted, never opened.
    if (start !== undefined) {
      for (const row of database.rows('SELECT count(*) AS older FROM session WHERE parent_id IS NULL AND time_updated < ?', [start])) {
        for (let index = 0; index < Number(row.older); index += 1) {
          context.report.fileFound();
          context.report.fileSkippedUnopened('outside-window');
        }
      }
    }
    const sessions = database.rows(
      `SELECT rowid, id, directory, agent, time_created, time_updated${hasMetadata ? ', metadata' : ''} FROM session
       WHERE parent_id IS NULL${start === undefined ? '' : ' AND time_updated >= ?'} ORDER BY time_updated DESC, id DESC`,
      start === undefined ? [] : [start],
    );
    for (const session of sessions) {
      context.signal?.throwIfAborted();
      context.report.fileFound();
      const { id, directory, time_created: created, time_updated: updated } = session;
      if (
        typeof id !== 'string' ||
        id === '' ||
        typeof directory !== 'string' ||
        !path.isAbsolute(directory) ||
        !isPositiveTime(created) ||
        !isPositiveTime(updated)
      ) {
        context.report.corruptLine(file, Number(session.rowid), 'a session row without a string id, an absolute directory and positive times');
        context.report.sessionSkipped('malformed');
        continue;
      }
      if (!isInScope(context.scope, directory)) {
        context.report.fileSkippedUnopened('outside-scope');
        continue;
      }
      if (typeof session.agent === 'string' && OWN_AGENT_NAME.test(session.agent)) {
        context.report.sessionSkipped('own-session');
        continue;
      }
      context.report.fileRead(0);
      const builder = context.newSession(id, `${file}#${id}`);
      builder.project(directory);
      builder.branch(asString(parseJsonObject(session.metadata)?.gitBranch));
      builder.time(created);
      builder.time(updated);
      readMessages(database, id, builder, context);
      const record = builder.finish(updated);
      if (record !== undefined) yield record;
    }
  } finally {
    database.close();
  }
}

export const opencodeSource: SessionSource = {
  id: 'opencode',
  name: 'OpenCode',
  read: readOpencode,
};
