import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { SourceContext } from '../../harvest/session-source.js';
import { readJsonDocument } from './json-document.js';
import { isMissingFile } from './missing-file.js';

/**
 * The folders Devin works in: those given (`SKILLOPT_DEVIN_WORKSPACES`, or the harvest's own
 * list), else those the Devin app has opened, newest first, as its VS Code-style
 * `workspaceStorage/<hash>/workspace.json` records them. Only local folders count: a remote or
 * multi-root workspace names no folder of this machine's sessions.
 */

// A workspace.json is a line of JSON; anything near this size is not one.
const MAX_WORKSPACE_RECORD_BYTES = 64 << 10;

function localFolder(record: unknown): string | undefined {
  const folder = (record as { folder?: unknown } | null)?.folder;
  if (typeof folder !== 'string' || !folder.startsWith('file:')) return undefined;
  try {
    return fileURLToPath(folder);
  } catch {
    return undefined;
  }
}

async function openedWorkspaces(storage: string, context: SourceContext): Promise<string[]> {
  let entries: string[];
  try {
    entries = await readdir(storage);
  } catch (error) {
    // The app is optional: most machines harvesting Devin's CLI transcripts never installed it.
    if (!isMissingFile(error)) context.locationUnreadable(storage, error);
    return [];
  }
  const opened: { folder: string; modified: number }[] = [];
  for (const entry of entries) {
    const record = path.join(storage, entry, 'workspace.json');
    try {
      const modified = (await stat(record)).mtimeMs;
      const document = await readJsonDocument(record, MAX_WORKSPACE_RECORD_BYTES);
      const folder = document.kind === 'parsed' ? localFolder(document.value) : undefined;
      if (folder !== undefined) opened.push({ folder, modified });
    } catch (error) {
      if (!isMissingFile(error)) context.locationUnreadable(record, error);
    }
  }
  return opened.sort((left, right) => right.modified - left.modified).map((workspace) => workspace.folder);
}

export async function devinWorkspaces(context: SourceContext): Promise<string[]> {
  const given = context.locations.devinWorkspaces;
  const folders = given.length > 0 ? given.map((folder) => path.resolve(folder)) : await openedWorkspaces(context.locations.devinWorkspaceStorage, context);
  return [...new Set(folders)];
}
