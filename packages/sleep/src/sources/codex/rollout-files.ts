import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import type { SourceContext } from '../../harvest/session-source.js';

/**
 * The rollout files of Codex's two layouts under its home: the CLI's `sessions/YYYY/MM/DD/*.jsonl`
 * and the Desktop app's flat `archived_sessions/*.jsonl` (archiving moves a rollout there).
 */
export interface RolloutFile {
  file: string;
  modified: number;
  /** The session the file's name says it holds: the thread id ending the name, else the name. */
  sessionKey: string;
}

export const SESSIONS_FOLDER = 'sessions';
export const ARCHIVED_SESSIONS_FOLDER = 'archived_sessions';

// `rollout-<local time>-<thread id>.jsonl`: the thread id is a UUID.
const THREAD_ID_AT_END = /([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})$/i;

export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function sessionKeyOf(file: string): string {
  const stem = path.basename(file, '.jsonl');
  return THREAD_ID_AT_END.exec(stem)?.[1] ?? stem;
}

/** The entries of `folder`; undefined when it is missing (not reported) or unreadable (reported). */
async function entriesOf(folder: string, context: SourceContext): Promise<Dirent[] | undefined> {
  try {
    return await readdir(folder, { withFileTypes: true });
  } catch (error) {
    if (!isMissing(error)) context.locationUnreadable(folder, error);
    return undefined;
  }
}

/** The `.jsonl` files in `folder`, and in its subfolders when `nested`. */
async function jsonLinesFilesIn(folder: string, nested: boolean, context: SourceContext): Promise<string[]> {
  const entries = (await entriesOf(folder, context)) ?? [];
  const files: string[] = [];
  for (const entry of entries) {
    const entryPath = path.join(folder, entry.name);
    if (entry.isDirectory() && nested) files.push(...(await jsonLinesFilesIn(entryPath, nested, context)));
    else if (entry.isFile() && entry.name.endsWith('.jsonl')) files.push(entryPath);
  }
  return files;
}

async function withModifiedTime(files: readonly string[], context: SourceContext): Promise<RolloutFile[]> {
  const rollouts: RolloutFile[] = [];
  for (const file of files) {
    try {
      rollouts.push({ file, modified: (await stat(file)).mtimeMs, sessionKey: sessionKeyOf(file) });
    } catch (error) {
      if (!isMissing(error)) context.locationUnreadable(file, error);
    }
  }
  return rollouts;
}

/**
 * Every rollout file of both layouts, newest first by last write; undefined when neither layout
 * exists (one of the two missing is usual: the CLI alone never archives). The date folders are not a window on their own: `codex resume` appends to the rollout in
 * the folder of the day the session began, so an old folder can hold a session that ended today.
 * The last write is what tells, and it is read without opening the file.
 */
export async function listRolloutFiles(codexHome: string, context: SourceContext): Promise<RolloutFile[] | undefined> {
  const layouts = [
    { folder: path.join(codexHome, SESSIONS_FOLDER), nested: true },
    { folder: path.join(codexHome, ARCHIVED_SESSIONS_FOLDER), nested: false },
  ];
  const present: typeof layouts = [];
  let missing = 0;
  for (const layout of layouts) {
    try {
      if ((await stat(layout.folder)).isDirectory()) present.push(layout);
      else missing += 1;
    } catch (error) {
      if (isMissing(error)) missing += 1;
      else context.locationUnreadable(layout.folder, error);
    }
  }
  if (missing === layouts.length) return undefined;
  const files: RolloutFile[] = [];
  for (const layout of present) {
    context.report.looked(layout.folder);
    files.push(...(await withModifiedTime(await jsonLinesFilesIn(layout.folder, layout.nested, context), context)));
  }
  return files.sort((left, right) => right.modified - left.modified);
}
