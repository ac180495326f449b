import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SessionSource, SourceContext } from '../../harvest/session-source.js';
import { readAgentMemories } from './agent-memory.js';
import { isAtifTrajectory, readAtifTrajectory } from './atif-transcript.js';
import { devinWorkspaces } from './devin-workspaces.js';
import { MAX_FILE_BYTES } from './bounded-file.js';
import { readJsonDocument } from './json-document.js';
import { readSkill, type SkillFile, skillFilesToRead } from './workspace-skills.js';
import { isMissingFile } from './missing-file.js';

/**
 * Devin's sessions, read natively: the CLI's ATIF transcripts (one JSON document per session),
 * the memories its agentmemory store holds and the skills of its workspaces. The original
 * converted all three into fake Claude Code transcripts for the engine to read back
 * (upstream-sleep §2.8), losing the outcomes on the way; here each is read into the one record.
 *
 * Every file is stat-ed, not opened, to find what to read: a file last written before the
 * window's start is passed over unopened, and the rest are read newest first by mtime.
 */

type Candidate = { kind: 'transcript'; file: string; modified: number } | { kind: 'memory'; file: string; modified: number } | ({ kind: 'skill' } & SkillFile);

function beforeWindow(modified: number, context: SourceContext): boolean {
  return context.window.earliestStart !== undefined && modified < context.window.earliestStart;
}

async function transcriptFilesUnder(folder: string, context: SourceContext): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (!isMissingFile(error)) context.locationUnreadable(folder, error);
    return [];
  }
  const files: string[] = [];
  for (const entry of entries) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await transcriptFilesUnder(entryPath, context)));
    else if (entry.isFile() && entry.name.endsWith('.json')) files.push(entryPath);
  }
  return files;
}

async function transcriptCandidates(context: SourceContext): Promise<Candidate[]> {
  const root = context.locations.devinTranscripts;
  let isFolder: boolean;
  try {
    isFolder = (await stat(root)).isDirectory();
  } catch (error) {
    if (isMissingFile(error)) context.locationMissing(root);
    else context.locationUnreadable(root, error);
    return [];
  }
  if (!isFolder) {
    context.locationUnreadable(root, new Error('a file, not a folder'));
    return [];
  }
  context.report.looked(root);
  const candidates: Candidate[] = [];
  for (const file of await transcriptFilesUnder(root, context)) {
    let modified: number;
    try {
      modified = (await stat(file)).mtimeMs;
    } catch (error) {
      if (!isMissingFile(error)) context.locationUnreadable(file, error);
      continue;
    }
    context.report.fileFound();
    if (beforeWindow(modified, context)) context.report.fileSkippedUnopened('outside-window');
    else candidates.push({ kind: 'transcript', file, modified });
  }
  return candidates;
}

async function memoryCandidates(context: SourceContext): Promise<Candidate[]> {
  const file = context.locations.agentMemoryFile;
  let modified: number;
  try {
    modified = (await stat(file)).mtimeMs;
  } catch (error) {
    if (isMissingFile(error)) context.locationMissing(file);
    else context.locationUnreadable(file, error);
    return [];
  }
  context.report.looked(file);
  context.report.fileFound();
  // No memory is dated after the store was last written, so an older store holds none of the window.
  if (beforeWindow(modified, context)) {
    context.report.fileSkippedUnopened('outside-window');
    return [];
  }
  return [{ kind: 'memory', file, modified }];
}

/** The sessions a JSON file holds: a transcript's one, or the store's memories. */
async function readJsonCandidate(candidate: Candidate & { kind: 'transcript' | 'memory' }, workspaces: readonly string[], context: SourceContext) {
  const { file, modified } = candidate;
  const document = await readJsonDocument(file);
  if (document.kind === 'too-large') {
    context.report.warning(file, `a file of ${document.bytes} bytes, over the ${MAX_FILE_BYTES} this reader holds in memory: not read`);
    context.report.sessionSkipped('over-limit');
    return [];
  }
  context.report.fileRead(document.bytesRead);
  if (document.kind === 'corrupt') {
    context.report.corruptLine(file, document.line, document.message);
    return [];
  }
  if (candidate.kind === 'memory') return readAgentMemories(document.value, file, modified, workspaces, context);
  // Other JSON files of the folder (settings, indexes) are not sessions; they are counted as malformed.
  if (!isAtifTrajectory(document.value)) {
    context.report.sessionSkipped('malformed');
    return [];
  }
  const session = readAtifTrajectory(document.value, file, modified, workspaces, context);
  return session === undefined ? [] : [session];
}

async function* readDevin(context: SourceContext): AsyncGenerator<HarvestedSession> {
  const workspaces = await devinWorkspaces(context);
  const skills = (await skillFilesToRead(workspaces, context)).map((skill): Candidate => ({ kind: 'skill', ...skill }));
  const candidates = [...(await transcriptCandidates(context)), ...(await memoryCandidates(context)), ...skills];
  for (const candidate of candidates.sort((left, right) => right.modified - left.modified)) {
    context.signal?.throwIfAborted();
    let sessions: HarvestedSession[];
    try {
      if (candidate.kind === 'skill') {
        const session = await readSkill(candidate, context);
        sessions = session === undefined ? [] : [session];
      } else sessions = await readJsonCandidate(candidate, workspaces, context);
    } catch (error) {
      if ((error as Error).name === 'AbortError') throw error;
      // Removed between listing and reading: nothing to harvest, nothing to warn of.
      if (!isMissingFile(error)) context.locationUnreadable(candidate.file, error);
      continue;
    }
    yield* sessions;
  }
}

export const devinSource: SessionSource = {
  id: 'devin',
  name: 'Devin',
  read: readDevin,
};
