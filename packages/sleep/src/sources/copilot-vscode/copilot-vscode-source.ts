import type { Dirent } from 'node:fs';
import { open, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInScope } from '../../harvest/project-scope.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { addChatSession, chatSessionId } from './chat-session.js';
import { replayOperationLog } from './operation-log.js';
import { workspaceFolderOf } from './workspace-folder.js';

/**
 * VS Code's GitHub Copilot Chat: each `User/workspaceStorage/<id>/` folder is one workspace,
 * named by its `workspace.json`, with its chat sessions as `chatSessions/*.jsonl` operation logs.
 * The workspace's folder is known before a session file is opened, so scope and window (by the
 * file's modification time) leave files unopened.
 */

interface ChatSessionFile {
  file: string;
  project: string;
  modified: number;
}

// A workspace.json is one short line; a larger one is not VS Code's.
const MAX_WORKSPACE_JSON_BYTES = 64 * 1024;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function readSmallFile(file: string, maxBytes: number): Promise<string | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    if (isMissing(error)) return undefined;
    throw error;
  }
  try {
    const buffer = Buffer.alloc(maxBytes);
    const { bytesRead } = await handle.read(buffer, 0, maxBytes, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

async function listFolder(folder: string, context: SourceContext): Promise<Dirent[]> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (!isMissing(error)) context.locationUnreadable(folder, error);
    return [];
  }
}

/** The project of one workspace storage folder, or undefined when `workspace.json` names none on this machine. */
async function projectOf(workspaceFolder: string, context: SourceContext): Promise<string | undefined> {
  const file = path.join(workspaceFolder, 'workspace.json');
  try {
    const text = await readSmallFile(file, MAX_WORKSPACE_JSON_BYTES);
    return text === undefined ? undefined : workspaceFolderOf(text);
  } catch (error) {
    context.locationUnreadable(file, error);
    return undefined;
  }
}

/**
 * The chat session files of every storage root, newest first, each path once (roots may
 * overlap). Regular files only: a symbolic link is not followed out of the storage.
 */
async function sessionFilesToRead(roots: readonly string[], context: SourceContext): Promise<ChatSessionFile[]> {
  const { report, scope, window } = context;
  const seen = new Set<string>();
  const toRead: ChatSessionFile[] = [];
  // Most machines have one of VS Code's builds, not all: a missing root is only worth a warning
  // when no root exists at all.
  const missingRoots: string[] = [];
  for (const root of roots) {
    let workspaces: Dirent[];
    try {
      workspaces = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory());
    } catch (error) {
      if (isMissing(error)) missingRoots.push(root);
      else context.locationUnreadable(root, error);
      continue;
    }
    report.looked(root);
    for (const workspace of workspaces) {
      const workspaceFolder = path.join(root, workspace.name);
      const chatFolder = path.join(workspaceFolder, 'chatSessions');
      const files = (await listFolder(chatFolder, context))
        .filter((entry) => entry.isFile() && entry.name.endsWith('.jsonl'))
        .map((entry) => path.resolve(chatFolder, entry.name))
        .filter((file) => !seen.has(file));
      if (files.length === 0) continue;
      for (const file of files) seen.add(file);
      const project = await projectOf(workspaceFolder, context);
      for (const file of files) {
        report.fileFound();
        // A workspace that names no folder here (none, or a remote one) belongs to no project.
        if (project === undefined || !isInScope(scope, project)) {
          report.fileSkippedUnopened('outside-scope');
          continue;
        }
        let modified: number;
        try {
          modified = (await stat(file)).mtimeMs;
        } catch (error) {
          if (!isMissing(error)) context.locationUnreadable(file, error);
          continue;
        }
        // A file last written before the window's start holds no session that ended in it.
        if (window.earliestStart !== undefined && modified < window.earliestStart) report.fileSkippedUnopened('outside-window');
        else toRead.push({ file, project, modified });
      }
    }
  }
  if (missingRoots.length === roots.length) for (const root of missingRoots) context.locationMissing(root);
  else for (const root of missingRoots) report.looked(root);
  return toRead.sort((left, right) => right.modified - left.modified);
}

async function readChatSession({ file, project, modified }: ChatSessionFile, context: SourceContext): Promise<HarvestedSession | undefined> {
  const replay = await replayOperationLog(file, (lineNumber, message) => context.report.corruptLine(file, lineNumber, message), context.signal);
  context.report.fileRead(replay.bytesRead);
  const builder = context.newSession(chatSessionId(replay.state) ?? path.basename(file, '.jsonl'), file);
  builder.project(project);
  addChatSession(replay.state, builder);
  return builder.finish(modified);
}

async function* readCopilotVscode(context: SourceContext): AsyncGenerator<HarvestedSession> {
  for (const session of await sessionFilesToRead(context.locations.vscodeWorkspaceStorage, context)) {
    context.signal?.throwIfAborted();
    let record: HarvestedSession | undefined;
    try {
      record = await readChatSession(session, context);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // Removed between listing and reading: nothing to harvest, nothing to warn of.
      if (!isMissing(error)) context.locationUnreadable(session.file, error);
      continue;
    }
    if (record !== undefined) yield record;
  }
}

export const copilotVscodeSource: SessionSource = {
  id: 'copilot-vscode',
  name: 'VS Code Copilot Chat',
  read: readCopilotVscode,
};
