import { isInScope } from '../../harvest/project-scope.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SourceContext } from '../../harvest/session-source.js';
import { toEpochMilliseconds } from '../../harvest/timestamps.js';
import type { ReadOnlyDatabase } from '../../sqlite/read-only-database.js';

/**
 * The Copilot CLI's SQLite session store (upstream-sleep §2.4): a `sessions` row each (folder,
 * branch, times as `YYYY-MM-DD HH:MM:SS`), its `turns` (a prompt and the reply to it), and
 * `session_files` (the files its tools touched, with the tool's name).
 */

const REQUIRED_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  sessions: ['id', 'cwd', 'updated_at'],
  turns: ['session_id', 'turn_index', 'user_message', 'assistant_response'],
};

/** A session row found, not yet read. */
export interface SessionStoreEntry {
  sessionId: string;
  folder: string;
  branch: string | undefined;
  createdAt: unknown;
  updatedAt: unknown;
  /** Epoch ms of its last update, when the row says. */
  modified: number | undefined;
}

/** Why `database` is not a Copilot session store, or undefined when it is one. */
export function sessionStoreSchemaProblem(database: ReadOnlyDatabase): string | undefined {
  for (const [table, columns] of Object.entries(REQUIRED_COLUMNS)) {
    const present = database.columnsOf(table);
    if (present.size === 0) return `no "${table}" table`;
    const absent = columns.filter((column) => !present.has(column));
    if (absent.length > 0) return `the "${table}" table has no ${absent.map((column) => `"${column}"`).join(', ')}`;
  }
  return undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/**
 * The store's sessions to read, newest first; those already read from the session-state folder
 * (`seen`) are left out uncounted, being the same sessions. The window compares each row's full
 * update time in epoch milliseconds — the original cut at the day, as text, so every night re-read
 * the sessions of the day before — and the rows it rules out are counted, their turns never read.
 */
export function listSessionStore(database: ReadOnlyDatabase, seen: ReadonlySet<string>, context: SourceContext): SessionStoreEntry[] {
  const { report, scope, window } = context;
  const columns = database.columnsOf('sessions');
  const optional = ['branch', 'created_at'].filter((column) => columns.has(column));
  const entries: SessionStoreEntry[] = [];
  for (const row of database.rows(`SELECT rowid, id, cwd, updated_at${optional.map((column) => `, ${column}`).join('')} FROM sessions`)) {
    const sessionId = typeof row.id === 'string' || typeof row.id === 'number' ? String(row.id).trim() : '';
    if (sessionId !== '' && seen.has(sessionId)) continue;
    report.fileFound();
    if (sessionId === '') {
      report.corruptLine(database.file, Number(row.rowid), 'a sessions row without an id');
      report.sessionSkipped('malformed');
      continue;
    }
    const modified = toEpochMilliseconds(row.updated_at) ?? toEpochMilliseconds(row.created_at);
    if (window.earliestStart !== undefined && modified !== undefined && modified < window.earliestStart) {
      report.fileSkippedUnopened('outside-window');
      continue;
    }
    const folder = text(row.cwd);
    // A session that names no folder belongs to no project: no night could learn from it.
    if (folder === undefined || !isInScope(scope, folder)) {
      report.fileSkippedUnopened('outside-scope');
      continue;
    }
    entries.push({ sessionId, folder, branch: text(row.branch), createdAt: row.created_at, updatedAt: row.updated_at, modified });
  }
  return entries;
}

/** One session's turns and files read into a record. */
export function readSessionStoreEntry(database: ReadOnlyDatabase, entry: SessionStoreEntry, context: SourceContext): HarvestedSession | undefined {
  const { sessionId } = entry;
  context.report.fileRead(0);
  const builder = context.newSession(sessionId, `${database.file}#${sessionId}`);
  builder.project(entry.folder);
  builder.branch(entry.branch);
  builder.time(entry.createdAt);
  builder.time(entry.updatedAt);
  for (const turn of database.rows('SELECT user_message, assistant_response FROM turns WHERE session_id = ? ORDER BY turn_index', [sessionId])) {
    if (typeof turn.user_message === 'string') builder.userPrompt(turn.user_message);
    if (typeof turn.assistant_response === 'string') builder.assistantTurn(turn.assistant_response);
  }
  const fileColumns = database.columnsOf('session_files');
  if (fileColumns.has('session_id') && fileColumns.has('tool_name')) {
    for (const row of database.rows('SELECT DISTINCT tool_name FROM session_files WHERE session_id = ? AND tool_name IS NOT NULL ORDER BY tool_name', [
      sessionId,
    ]))
      if (typeof row.tool_name === 'string') builder.toolCall(row.tool_name);
  }
  if (fileColumns.has('session_id') && fileColumns.has('file_path')) {
    for (const row of database.rows('SELECT DISTINCT file_path FROM session_files WHERE session_id = ? AND file_path IS NOT NULL ORDER BY file_path', [
      sessionId,
    ]))
      if (typeof row.file_path === 'string') builder.file(row.file_path);
  }
  return builder.finish(entry.updatedAt);
}
