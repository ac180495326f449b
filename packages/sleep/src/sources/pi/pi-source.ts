import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { forEachJsonLine } from '../../harvest/json-lines.js';
import type { SessionBuilder } from '../../harvest/session-builder.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { isMissingFile } from '../devin/missing-file.js';
import { asObject, asString, type JsonObject } from '../json-fields.js';
import { piFolderMayHold } from './session-folder-slug.js';
import { addPiEntry, type SeenToolCalls } from './session-entry.js';
import { createSessionTree } from './session-tree.js';

/**
 * Pi's sessions: `<pi home>/agent/sessions/--<cwd slug>--/<time>_<id>.jsonl`. Each file opens with
 * one `session` header (id, cwd, time, format version) and then holds one entry per line: a
 * plain history in version 1, a tree of entries (each naming its parent) in versions 2 and 3.
 *
 * The format is strict, and so is this reader: a file whose header is missing or repeated, whose
 * version is unknown, whose tree names a parent that does not come before its child, or one of
 * whose lines is not a JSON object is rejected whole as malformed — with one exception. Pi appends
 * an entry at a time, so a reader racing it can find the last line half-written; that line is
 * reported as corrupt and the rest of the session is kept (the original rejected the session,
 * which lost every live session). A broken line with entries after it is damage, not a write in
 * progress, and in a tree it would silently re-attach the branch: that rejects the session.
 */

interface SessionFile {
  file: string;
  modified: number;
}

interface SessionHeader {
  id: string | undefined;
  cwd: unknown;
  timestamp: unknown;
  form: 'linear' | 'tree';
}

/** The header a first record is, or why it is not one. */
function sessionHeader(record: JsonObject): SessionHeader | string {
  if (record.type !== 'session') return 'the first line is not the session header';
  const { version } = record;
  let form: SessionHeader['form'];
  if (version === undefined || version === 1) form = 'linear';
  else if (version === 2 || version === 3) form = 'tree';
  else return `session format version ${JSON.stringify(version)} is not one this reader knows`;
  const id = asString(record.id);
  return { id: id === '' ? undefined : id, cwd: record.cwd, timestamp: record.timestamp, form };
}

/** The session files under `folder` and below it. */
async function sessionFilesUnder(folder: string, context: SourceContext): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (!isMissingFile(error)) context.locationUnreadable(folder, error);
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const child = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await sessionFilesUnder(child, context)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) files.push(child);
  }
  return files;
}

/** The files to read, newest first; those the folder's slug or the file's mtime rule out are counted and left unopened. */
async function filesToRead(root: string, entries: Dirent[], context: SourceContext): Promise<SessionFile[]> {
  const { report, scope, window } = context;
  const toRead: SessionFile[] = [];
  for (const entry of entries) {
    const child = path.join(root, entry.name);
    let files: string[];
    let inScope = true;
    if (entry.isDirectory()) {
      files = await sessionFilesUnder(child, context);
      inScope = scope.kind === 'all' || piFolderMayHold(entry.name, scope.projects);
    } else if (entry.isFile() && entry.name.endsWith('.jsonl')) files = [child];
    else continue;
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
      // A file last written before the window's start holds no session that ended in it.
      if (window.earliestStart !== undefined && modified < window.earliestStart) report.fileSkippedUnopened('outside-window');
      else toRead.push({ file, modified });
    }
  }
  return toRead.sort((left, right) => right.modified - left.modified);
}

/** One line that was not a JSON object, held until the next record tells whether it was the last. */
interface BrokenLine {
  lineNumber: number;
  message: string;
}

/**
 * Reads one session. A linear history is fed to the builder as it streams; a tree is read twice:
 * once to check it and find the active branch (ids and line numbers only are held), once to feed
 * the branch's entries, every other line streaming past unparsed.
 */
async function readSession({ file, modified }: SessionFile, context: SourceContext): Promise<HarvestedSession | undefined> {
  const { report } = context;
  const fileStem = path.basename(file, '.jsonl');
  let builder: SessionBuilder | undefined;
  let header: SessionHeader | undefined;
  let problem: string | undefined;
  let broken: BrokenLine | undefined;
  const tree = createSessionTree();
  const seen: SeenToolCalls = new Set();
  const reject = (message: string) => {
    problem ??= message;
  };
  const entryAfterBrokenLine = (earlier: BrokenLine) => {
    report.corruptLine(file, earlier.lineNumber, earlier.message);
    reject(`line ${earlier.lineNumber} is not a JSON object, and entries follow it`);
  };
  // A broken line is held until the next line tells whether it was the last one.
  const lineBroken = (lineNumber: number, message: string) => {
    if (problem !== undefined) return;
    if (broken !== undefined) entryAfterBrokenLine(broken);
    else broken = { lineNumber, message };
  };

  const { bytesRead, lines } = await forEachJsonLine(
    file,
    (record, lineNumber) => {
      if (problem !== undefined) return;
      if (broken !== undefined) return entryAfterBrokenLine(broken);
      const object = asObject(record);
      if (object === undefined) return lineBroken(lineNumber, 'not a JSON object');
      if (header === undefined) {
        const found = sessionHeader(object);
        if (typeof found === 'string') return reject(found);
        header = found;
        builder = context.newSession(header.id ?? fileStem, file);
        builder.project(asString(header.cwd));
        builder.time(header.timestamp);
        return;
      }
      if (object.type === 'session') return reject(`a second session header on line ${lineNumber}`);
      if (header.form === 'linear') {
        if (builder !== undefined) addPiEntry(object, builder, seen);
        return;
      }
      const treeProblem = tree.add(object.id, object.parentId, lineNumber);
      if (treeProblem !== undefined) reject(treeProblem);
    },
    { signal: context.signal, onCorruptLine: lineBroken },
  );
  report.fileRead(bytesRead);
  // The last line, half-written by a live Pi: reported, and the session kept without it.
  if (broken !== undefined && problem === undefined) report.corruptLine(file, broken.lineNumber, `${broken.message} (the last line: still being written?)`);
  if (header === undefined && problem === undefined) reject('no session header');

  const session = builder ?? context.newSession(fileStem, file);
  if (problem !== undefined) {
    report.warning(file, `not read as a Pi session: ${problem}`);
    session.reject('malformed');
    return session.finish(modified);
  }
  if (header?.form === 'tree') {
    const active = tree.activeLines();
    const second = await forEachJsonLine(
      file,
      (record) => {
        const object = asObject(record);
        if (object !== undefined) addPiEntry(object, session, seen);
      },
      {
        signal: context.signal,
        // Only the branch's lines, and none Pi appended after the first reading.
        keep: (_prefix, lineNumber) => lineNumber <= lines && active.has(lineNumber),
        prefixBytes: 0,
        onCorruptLine: () => undefined,
      },
    );
    report.bytesRead(second.bytesRead);
  }
  return session.finish(modified);
}

async function* readPi(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const root = path.join(context.locations.piHome, 'agent', 'sessions');
  let entries: Dirent[];
  try {
    entries = await readdir(root, { withFileTypes: true });
  } catch (error) {
    if (isMissingFile(error)) context.locationMissing(root);
    else context.locationUnreadable(root, error);
    return;
  }
  context.report.looked(root);
  for (const session of await filesToRead(root, entries, context)) {
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

export const piSource: SessionSource = {
  id: 'pi',
  name: 'Pi',
  read: readPi,
};
