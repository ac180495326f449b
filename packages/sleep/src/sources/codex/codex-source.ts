import path from 'node:path';
import { forEachJsonLine } from '../../harvest/json-lines.js';
import type { SessionBuilder } from '../../harvest/session-builder.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { createRolloutReader, type RolloutReader, sessionMetaId } from './rollout-record.js';
import { ARCHIVED_SESSIONS_FOLDER, isMissing, listRolloutFiles, type RolloutFile, SESSIONS_FOLDER } from './rollout-files.js';

/**
 * Codex's sessions, one rollout file each: the CLI's under `sessions/YYYY/MM/DD/`, the Desktop
 * app's archived ones under `archived_sessions/` (upstream-sleep §2.2). Both layouts are read,
 * newest first, and a session found in both is read once, from its newest copy.
 */

interface ReadRollout {
  sessionId: string;
  builder: SessionBuilder;
}

/** One rollout read into its session's builder; the session's id is its `session_meta`'s, else the file's. */
async function readRollout({ file, sessionKey }: RolloutFile, context: SourceContext): Promise<ReadRollout> {
  let session: (ReadRollout & { reader: RolloutReader }) | undefined;
  const start = (sessionId: string) => {
    const builder = context.newSession(sessionId, file);
    session = { sessionId, builder, reader: createRolloutReader(builder) };
    return session;
  };
  const { bytesRead } = await forEachJsonLine(file, (record) => (session ?? start(sessionMetaId(record) ?? sessionKey)).reader.add(record), {
    signal: context.signal,
    onCorruptLine: (lineNumber, message) => context.report.corruptLine(file, lineNumber, message),
  });
  context.report.fileRead(bytesRead);
  return session ?? start(sessionKey);
}

async function* readCodex(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const home = context.locations.codexHome;
  const files = await listRolloutFiles(home, context);
  if (files === undefined) {
    context.locationMissing(path.join(home, SESSIONS_FOLDER));
    context.locationMissing(path.join(home, ARCHIVED_SESSIONS_FOLDER));
    return;
  }
  const { report, window } = context;
  const sessionsSeen = new Set<string>();
  for (const rollout of files) {
    context.signal?.throwIfAborted();
    if (sessionsSeen.has(rollout.sessionKey)) continue;
    sessionsSeen.add(rollout.sessionKey);
    report.fileFound();
    // A file last written before the window's start holds no session that ended in it.
    if (window.earliestStart !== undefined && rollout.modified < window.earliestStart) {
      report.fileSkippedUnopened('outside-window');
      continue;
    }
    let read: ReadRollout;
    try {
      read = await readRollout(rollout, context);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // Archived or removed between listing and reading: the next harvest finds it where it went.
      if (!isMissing(error)) context.locationUnreadable(rollout.file, error);
      continue;
    }
    // A copy whose name did not tell its id, of a session already read from the other layout.
    if (read.sessionId !== rollout.sessionKey && sessionsSeen.has(read.sessionId)) continue;
    sessionsSeen.add(read.sessionId);
    const record = read.builder.finish(rollout.modified);
    if (record !== undefined) yield record;
  }
}

export const codexSource: SessionSource = {
  id: 'codex',
  name: 'Codex',
  read: readCodex,
};
