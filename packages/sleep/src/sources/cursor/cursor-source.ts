import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachJsonLine } from '../../harvest/json-lines.js';
import { isInScope } from '../../harvest/project-scope.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { readJsonDocument } from '../devin/json-document.js';
import { isMissingFile } from '../devin/missing-file.js';
import { asObject, asString } from '../json-fields.js';
import { addCursorRecord } from './transcript-record.js';
import { projectOfSlug } from './workspace-slug.js';

/**
 * Cursor's agent sessions: `<cursor home>/projects/<workspace slug>/agent-transcripts/<session>/*.jsonl`,
 * the workspace's folder named in `<workspace slug>/.workspace-trusted` (`workspacePath`). Only the
 * files directly in a session's folder are its transcript; `subagents/` below it are the agent's
 * own helpers. Records carry no times, so a session ends at its file's mtime — which also lets the
 * window pass files over before they are opened.
 */

// `.workspace-trusted` is a few dozen bytes; a larger one is not Cursor's.
const MAX_WORKSPACE_FILE_BYTES = 64 << 10;

interface SessionFile {
  file: string;
  modified: number;
  /** The workspace's folder, or '' when neither its file nor its slug tells it. */
  project: string;
}

async function directoriesIn(folder: string, context: SourceContext): Promise<Dirent[]> {
  try {
    return (await readdir(folder, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  } catch (error) {
    if (!isMissingFile(error)) context.locationUnreadable(folder, error);
    return [];
  }
}

/** The transcripts of a workspace: the `.jsonl` files directly in each session folder. */
async function transcriptsOf(workspace: string, context: SourceContext): Promise<string[]> {
  const transcripts = path.join(workspace, 'agent-transcripts');
  const files: string[] = [];
  for (const session of await directoriesIn(transcripts, context)) {
    const folder = path.join(transcripts, session.name);
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      if (!isMissingFile(error)) context.locationUnreadable(folder, error);
      continue;
    }
    for (const entry of entries) if (entry.isFile() && entry.name.endsWith('.jsonl')) files.push(path.join(folder, entry.name));
  }
  return files;
}

/** The folder `.workspace-trusted` names, when it is there and names an absolute one. */
async function trustedWorkspacePath(workspace: string, context: SourceContext): Promise<string | undefined> {
  const file = path.join(workspace, '.workspace-trusted');
  let document: Awaited<ReturnType<typeof readJsonDocument>>;
  try {
    document = await readJsonDocument(file, MAX_WORKSPACE_FILE_BYTES);
  } catch (error) {
    if (!isMissingFile(error)) context.locationUnreadable(file, error);
    return undefined;
  }
  if (document.kind === 'too-large') {
    context.report.warning(file, `${document.bytes} bytes: not a workspace file Cursor wrote, so it names no project`);
    return undefined;
  }
  if (document.kind === 'corrupt') {
    context.report.corruptLine(file, document.line, document.message);
    return undefined;
  }
  const workspacePath = asString(asObject(document.value)?.workspacePath);
  return workspacePath !== undefined && path.isAbsolute(workspacePath) ? workspacePath : undefined;
}

/**
 * The workspace's project: the folder its `.workspace-trusted` names; without that file, the one
 * project of the scope whose slug the folder's name is (the slug is lossy, but no other folder
 * the harvest asks about can have written it); else unknown.
 */
async function workspaceProject(workspace: string, slug: string, context: SourceContext): Promise<string> {
  const trusted = await trustedWorkspacePath(workspace, context);
  if (trusted !== undefined) return trusted;
  return context.scope.kind === 'projects' ? (projectOfSlug(slug, context.scope.projects) ?? '') : '';
}

/** The files to read, newest first; those the scope or window rules out are counted and left unopened. */
async function filesToRead(root: string, workspaces: Dirent[], context: SourceContext): Promise<SessionFile[]> {
  const { report, scope, window } = context;
  const toRead: SessionFile[] = [];
  for (const workspace of workspaces) {
    const folder = path.join(root, workspace.name);
    const files = await transcriptsOf(folder, context);
    if (files.length === 0) continue;
    const project = await workspaceProject(folder, workspace.name, context);
    // The builder checks scope again on the project; this only spares opening what it would refuse.
    const inScope = isInScope(scope, project);
    for (const file of files) {
      report.fileFound();
      if (!inScope) {
        report.fileSkippedUnopened('outside-scope');
        continue;
      }
      let modified: number;
      try {
        modified = (await stat(file)).mtimeMs;
      } catch (error) {
        if (!isMissingFile(error)) context.locationUnreadable(file, error);
        continue;
      }
      if (window.earliestStart !== undefined && modified < window.earliestStart) report.fileSkippedUnopened('outside-window');
      else toRead.push({ file, modified, project });
    }
  }
  return toRead.sort((left, right) => right.modified - left.modified);
}

async function readSession({ file, modified, project }: SessionFile, context: SourceContext): Promise<HarvestedSession | undefined> {
  const builder = context.newSession(path.basename(file, '.jsonl'), file);
  builder.project(project);
  const { bytesRead } = await forEachJsonLine(file, (record) => addCursorRecord(record, builder), {
    signal: context.signal,
    onCorruptLine: (lineNumber, message) => context.report.corruptLine(file, lineNumber, message),
  });
  context.report.fileRead(bytesRead);
  return builder.finish(modified);
}

async function* readCursor(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const root = path.join(context.locations.cursorHome, 'projects');
  let workspaces: Dirent[];
  try {
    workspaces = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory());
  } catch (error) {
    if (isMissingFile(error)) context.locationMissing(root);
    else context.locationUnreadable(root, error);
    return;
  }
  context.report.looked(root);
  for (const session of await filesToRead(root, workspaces, context)) {
    context.signal?.throwIfAborted();
    let record: HarvestedSession | undefined;
    try {
      record = await readSession(session, context);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // Removed between listing and reading: nothing to harvest, nothing to warn of.
      if (!isMissingFile(error)) context.locationUnreadable(session.file, error);
      continue;
    }
    if (record !== undefined) yield record;
  }
}

export const cursorSource: SessionSource = {
  id: 'cursor',
  name: 'Cursor',
  read: readCursor,
};
