import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachJsonLine } from '../../harvest/json-lines.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { slugFolderMayHold } from './project-slug.js';
import { recordedTranscriptsOutside, type SessionFilesBySlugFolder } from './recorded-transcripts.js';
import { isSessionFileName, SUBAGENTS_FOLDER } from './session-file-name.js';
import { decodeWithoutThinking } from './thinking-blocks.js';
import { createTimestampScanner } from './timestamp-scanner.js';
import { readTranscriptPrefix } from './tool-result-prefix.js';
import { addTranscriptRecord } from './transcript-record.js';

/**
 * Claude Code's sessions: `<claude home>/projects/<slug>/<session id>.jsonl`, one folder per
 * project, and the transcripts the session-end hooks recorded elsewhere (another config home).
 * Subagents' transcripts (`subagents/` folders, `agent-*.jsonl`) are their own sessions of the
 * agent's making and are not read.
 */

// Enough for the keys before `message` in current and older record layouts (older ones put
// `cwd`, `sessionId` and `version` first).
const PREFIX_BYTES = 512;

interface SessionFile {
  file: string;
  modified: number;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function isSessionFile(entry: Dirent): boolean {
  return entry.isFile() && isSessionFileName(entry.name);
}

/** The session files under a slug folder (below it too: current versions nest per-session folders), `subagents/` left out. */
async function sessionFilesUnder(folder: string, context: SourceContext): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (!isMissing(error)) context.locationUnreadable(folder, error);
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (entry.isDirectory()) {
      if (entry.name !== SUBAGENTS_FOLDER) files.push(...(await sessionFilesUnder(path.join(folder, entry.name), context)));
    } else if (isSessionFile(entry)) files.push(path.join(folder, entry.name));
  }
  return files;
}

/** The session files under each slug folder of `root`. */
async function sessionFilesOfRoot(root: string, slugFolders: Dirent[], context: SourceContext): Promise<SessionFilesBySlugFolder> {
  const byFolder: SessionFilesBySlugFolder = new Map();
  for (const folder of slugFolders) byFolder.set(folder.name, await sessionFilesUnder(path.join(root, folder.name), context));
  return byFolder;
}

/** The files to read; those the scope or window rules out are counted and left unopened. */
async function filesToRead(byFolder: SessionFilesBySlugFolder, context: SourceContext): Promise<SessionFile[]> {
  const { report, scope, window } = context;
  const toRead: SessionFile[] = [];
  for (const [folder, files] of byFolder) {
    const inScope = scope.kind === 'all' || slugFolderMayHold(folder, scope.projects);
    // A folder's files are stat'ed all at once: one stat at a time, each awaited, left the reader idle.
    const stats = inScope ? await Promise.allSettled(files.map((file) => stat(file))) : [];
    for (const [index, file] of files.entries()) {
      report.fileFound();
      const result = stats[index];
      if (result === undefined) {
        report.fileSkippedUnopened('outside-scope');
        continue;
      }
      if (result.status === 'rejected') {
        if (!isMissing(result.reason)) context.locationUnreadable(file, result.reason);
        continue;
      }
      const modified = result.value.mtimeMs;
      // A file last written before the window's start holds no session that ended in it.
      if (window.earliestStart !== undefined && modified < window.earliestStart) report.fileSkippedUnopened('outside-window');
      else toRead.push({ file, modified });
    }
  }
  return toRead;
}

/** One transcript read into a record, tool results streamed past unparsed but for their time. */
async function readSession({ file, modified }: SessionFile, context: SourceContext): Promise<HarvestedSession | undefined> {
  const builder = context.newSession(path.basename(file, '.jsonl'), file);
  const scanner = createTimestampScanner((timestamp) => builder.time(timestamp));
  // Sidechain lines are passed over whole, their time too; tool results give only their time.
  let sidechainLine = 0;
  // Where the prefix showed the line's content to begin, so the thinking cut need not look again.
  let contentLine = 0;
  let contentStart: number | undefined;
  const { bytesRead } = await forEachJsonLine(file, (record) => addTranscriptRecord(record, builder), {
    prefixBytes: PREFIX_BYTES,
    decodeLine: (line, lineNumber) => decodeWithoutThinking(line, lineNumber === contentLine ? contentStart : undefined),
    signal: context.signal,
    keep(prefix, lineNumber) {
      const { verdict, contentStart: start } = readTranscriptPrefix(prefix);
      if (verdict === 'sidechain') sidechainLine = lineNumber;
      contentLine = lineNumber;
      contentStart = start;
      return verdict === 'parse';
    },
    onSkippedBytes(bytes, lineNumber) {
      if (lineNumber !== sidechainLine) scanner.push(bytes, lineNumber);
    },
    onCorruptLine: (lineNumber, message) => context.report.corruptLine(file, lineNumber, message),
  });
  context.report.fileRead(bytesRead);
  return builder.finish(modified);
}

/** The slug folders of `<claude home>/projects`; none when it is missing or unreadable (reported). */
async function slugFoldersOf(root: string, context: SourceContext): Promise<Dirent[]> {
  try {
    const folders = (await readdir(root, { withFileTypes: true })).filter((entry) => entry.isDirectory() && entry.name !== SUBAGENTS_FOLDER);
    context.report.looked(root);
    return folders;
  } catch (error) {
    if (isMissing(error)) context.locationMissing(root);
    else context.locationUnreadable(root, error);
    return [];
  }
}

async function* readClaudeCode(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const root = path.join(context.locations.claudeHome, 'projects');
  const listed = await filesToRead(await sessionFilesOfRoot(root, await slugFoldersOf(root, context), context), context);
  const recorded = await filesToRead(await recordedTranscriptsOutside(root, context), context);
  const newestFirst = [...listed, ...recorded].sort((left, right) => right.modified - left.modified);
  for (const session of newestFirst) {
    context.signal?.throwIfAborted();
    let record: HarvestedSession | undefined;
    try {
      record = await readSession(session, context);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // Removed between listing and reading: nothing to harvest, nothing to warn of.
      if (!isMissing(error)) context.locationUnreadable(session.file, error);
      continue;
    }
    if (record !== undefined) yield record;
  }
}

export const claudeCodeSource: SessionSource = {
  id: 'claude-code',
  name: 'Claude Code',
  read: readClaudeCode,
};
