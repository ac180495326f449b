import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachJsonLine } from '../../harvest/json-lines.js';
import { isInScope } from '../../harvest/project-scope.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SourceContext } from '../../harvest/session-source.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';
import { parseWorkspaceYaml, type WorkspaceFields } from './workspace-yaml.js';

/**
 * The Copilot CLI's own record of each session: `<copilot home>/session-state/<session id>/`
 * holds `events.jsonl` (one event a line: `session.start` with the folder, `user.message`,
 * `assistant.message`, `tool.execution_start`, …) and `workspace.yaml` (the session's id, folder
 * and times as flat `key: value` lines).
 */

/** A session folder found, not yet read. */
export interface SessionStateEntry {
  sessionId: string;
  eventsFile: string;
  modified: number;
  workspace: WorkspaceFields;
}

export interface SessionStateListing {
  /** The sessions to read, each with the time that orders it. */
  entries: SessionStateEntry[];
  /** Every session id found here, read or not: the session store's copy of any of them is not read. */
  sessionIds: Set<string>;
}

// A workspace.yaml is a dozen short lines; a larger one is not the CLI's.
const MAX_WORKSPACE_BYTES = 64 * 1024;

// The events a record is made of. Every other line (system prompts, tool output, usage records)
// streams past without being parsed: they are most of a file's bytes.
const EVENTS_READ = new Set(['session.start', 'user.message', 'assistant.message', 'tool.execution_start', 'session.error', 'session.shutdown']);
const EVENT_TYPE_PREFIX = /^\s*\{\s*"type"\s*:\s*"([^"\\]{1,100})"/;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readWorkspaceFields(file: string): Promise<WorkspaceFields> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return {};
    throw error;
  }
  try {
    const buffer = Buffer.alloc(MAX_WORKSPACE_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, MAX_WORKSPACE_BYTES, 0);
    return parseWorkspaceYaml(buffer.toString('utf8', 0, bytesRead));
  } finally {
    await handle.close();
  }
}

/**
 * The session folders under `root`, those the window or scope rules out counted and left
 * unopened: the events file's modification time tells the window, `workspace.yaml`'s folder the
 * scope, before a line of the events is read.
 */
export async function listSessionState(root: string, context: SourceContext): Promise<SessionStateListing | undefined> {
  const { report, scope, window } = context;
  let folders: Dirent[];
  try {
    folders = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  } catch (error) {
    if (isMissing(error)) context.locationMissing(root);
    else context.locationUnreadable(root, error);
    return undefined;
  }
  report.looked(root);
  const entries: SessionStateEntry[] = [];
  const sessionIds = new Set<string>();
  for (const folder of folders) {
    const eventsFile = path.join(root, folder.name, 'events.jsonl');
    let modified: number;
    try {
      const status = await stat(eventsFile);
      if (!status.isFile()) continue;
      modified = status.mtimeMs;
    } catch (error) {
      // A folder without events holds no session yet.
      if (!isMissing(error)) context.locationUnreadable(eventsFile, error);
      continue;
    }
    sessionIds.add(folder.name);
    report.fileFound();
    // A file last written before the window's start holds no session that ended in it.
    if (window.earliestStart !== undefined && modified < window.earliestStart) {
      report.fileSkippedUnopened('outside-window');
      continue;
    }
    let workspace: WorkspaceFields;
    try {
      workspace = await readWorkspaceFields(path.join(root, folder.name, 'workspace.yaml'));
    } catch (error) {
      context.locationUnreadable(path.join(root, folder.name, 'workspace.yaml'), error);
      workspace = {};
    }
    const sessionId = workspace.id !== undefined && workspace.id.trim() !== '' ? workspace.id.trim() : folder.name;
    sessionIds.add(sessionId);
    if (workspace.cwd !== undefined && workspace.cwd !== '' && !isInScope(scope, workspace.cwd)) {
      report.fileSkippedUnopened('outside-scope');
      continue;
    }
    entries.push({ sessionId, eventsFile, modified, workspace });
  }
  return { entries, sessionIds };
}

function errorDetail(data: JsonObject): string {
  const parts = [asString(data.errorType), asString(data.message)].filter((text): text is string => text !== undefined && text !== '');
  return parts.length === 0 ? 'the session reported an error' : parts.join(': ');
}

/** One session's events read into a record; a session that names no folder is counted and passed over. */
export async function readSessionState(entry: SessionStateEntry, context: SourceContext): Promise<HarvestedSession | undefined> {
  const { eventsFile, workspace } = entry;
  const builder = context.newSession(entry.sessionId, eventsFile);
  let folder = workspace.cwd ?? '';
  builder.project(workspace.cwd);
  builder.branch(workspace.branch);
  builder.time(workspace.created_at);
  builder.time(workspace.updated_at);
  const addEvent = (record: unknown) => {
    const event = asObject(record);
    const data = asObject(event?.data);
    if (event === undefined || data === undefined) return;
    const timestamp = event.timestamp;
    switch (event.type) {
      case 'session.start': {
        const startContext = asObject(data.context);
        const cwd = asString(startContext?.cwd);
        if (folder === '' && cwd !== undefined) folder = cwd.trim();
        builder.project(cwd);
        builder.branch(asString(startContext?.branch));
        builder.time(data.startTime);
        builder.time(timestamp);
        return;
      }
      case 'user.message':
        // `content` is what the developer typed; `transformedContent` adds the CLI's own context.
        builder.userPrompt(asString(data.content) ?? '', timestamp);
        return;
      case 'assistant.message':
        builder.assistantTurn(asString(data.content), timestamp);
        return;
      case 'tool.execution_start': {
        // A tool's name only: its arguments sit beside it and are never read.
        const name = asString(data.toolName);
        if (name !== undefined) builder.toolCall(name);
        builder.time(timestamp);
        return;
      }
      case 'session.error':
        builder.signal({ kind: 'turn-error', detail: errorDetail(data) });
        builder.time(timestamp);
        return;
      case 'session.shutdown': {
        const modifiedFiles = asObject(data.codeChanges)?.filesModified;
        if (Array.isArray(modifiedFiles)) for (const file of modifiedFiles) if (typeof file === 'string') builder.file(file);
        builder.time(timestamp);
        return;
      }
      default:
        builder.time(timestamp);
    }
  };
  const { bytesRead } = await forEachJsonLine(eventsFile, (record) => addEvent(record), {
    signal: context.signal,
    keep(prefix) {
      const type = EVENT_TYPE_PREFIX.exec(prefix.toString('latin1'))?.[1];
      // A line whose type is not where the CLI writes it is parsed, to be safe.
      return type === undefined || EVENTS_READ.has(type);
    },
    onCorruptLine: (lineNumber, message) => context.report.corruptLine(eventsFile, lineNumber, message),
  });
  context.report.fileRead(bytesRead);
  if (folder === '') {
    // A session that names no folder belongs to no project: no night could learn from it.
    context.report.sessionSkipped('outside-scope');
    return undefined;
  }
  return builder.finish(entry.modified);
}
