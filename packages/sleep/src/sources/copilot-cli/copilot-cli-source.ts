import path from 'node:path';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { openReadOnlyDatabase, type ReadOnlyDatabase } from '../../sqlite/read-only-database.js';
import { listSessionState, readSessionState, type SessionStateEntry } from './session-state.js';
import { listSessionStore, readSessionStoreEntry, type SessionStoreEntry, sessionStoreSchemaProblem } from './session-store.js';

/**
 * GitHub Copilot CLI keeps a session in two places: its session-state folder (the events as they
 * happened) and its SQLite session store (turns and files, upstream-sleep §2.4). Both are read,
 * the newest sessions first across the two; a session in both is read once, from its events,
 * which say more (each tool call, each time).
 */

type Candidate = { kind: 'events'; entry: SessionStateEntry; time: number } | { kind: 'store'; entry: SessionStoreEntry; time: number };

async function openSessionStore(context: SourceContext): Promise<ReadOnlyDatabase | undefined> {
  const file = context.locations.copilotSessionStore;
  const opening = await openReadOnlyDatabase(file, { signal: context.signal });
  if (opening.kind === 'missing') {
    context.locationMissing(file);
    return undefined;
  }
  if (opening.kind === 'unreadable') {
    context.locationUnreadable(file, opening.error);
    return undefined;
  }
  const problem = sessionStoreSchemaProblem(opening.database);
  if (problem !== undefined) {
    opening.database.close();
    context.locationUnreadable(file, new Error(`not a Copilot CLI session store: ${problem}`));
    return undefined;
  }
  context.report.looked(file);
  context.report.bytesRead(opening.database.bytesRead);
  return opening.database;
}

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

async function* readCopilotCli(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const listing = await listSessionState(path.join(context.locations.copilotHome, 'session-state'), context);
  const database = await openSessionStore(context);
  try {
    const candidates: Candidate[] = (listing?.entries ?? []).map((entry) => ({ kind: 'events', entry, time: entry.modified }));
    if (database !== undefined) {
      for (const entry of listSessionStore(database, listing?.sessionIds ?? new Set(), context))
        candidates.push({ kind: 'store', entry, time: entry.modified ?? 0 });
    }
    candidates.sort((left, right) => right.time - left.time);
    for (const candidate of candidates) {
      context.signal?.throwIfAborted();
      let record: HarvestedSession | undefined;
      if (candidate.kind === 'store') record = readSessionStoreEntry(database as ReadOnlyDatabase, candidate.entry, context);
      else {
        try {
          record = await readSessionState(candidate.entry, context);
        } catch (error) {
          if ((error as Error).name === 'AbortError') throw error;
          // Removed between listing and reading: nothing to harvest, nothing to warn of.
          if (!isMissing(error)) context.locationUnreadable(candidate.entry.eventsFile, error);
          continue;
        }
      }
      if (record !== undefined) yield record;
    }
  } finally {
    database?.close();
  }
}

export const copilotCliSource: SessionSource = {
  id: 'copilot-cli',
  name: 'GitHub Copilot CLI',
  read: readCopilotCli,
};
