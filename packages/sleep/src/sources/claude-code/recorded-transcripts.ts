import { realpath } from 'node:fs/promises';
import path from 'node:path';
import type { SourceContext } from '../../harvest/session-source.js';
import { readSessionEndLog } from '../../session-end/session-end-log.js';
import { isSessionFileName, SUBAGENTS_FOLDER } from './session-file-name.js';

/** Session files by the slug folder they lie in: the folder's name is what the scope rule reads. */
export type SessionFilesBySlugFolder = Map<string, string[]>;

function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

function isWithin(file: string, folder: string): boolean {
  return file === folder || file.startsWith(folder.endsWith(path.sep) ? folder : folder + path.sep);
}

/** The slug folder a transcript was recorded in: the folder below a `projects` folder, else its own folder. */
function slugFolderOf(file: string): string {
  const folders = path.dirname(file).split(path.sep);
  const projects = folders.lastIndexOf('projects');
  return (projects >= 0 ? folders[projects + 1] : undefined) ?? path.basename(path.dirname(file));
}

function isSessionTranscript(file: string): boolean {
  return isSessionFileName(path.basename(file)) && !path.dirname(file).split(path.sep).includes(SUBAGENTS_FOLDER);
}

/**
 * The Claude Code transcripts the session-end hooks recorded (`locations.sessionEndLog`) that lie
 * outside `root`, the `<claude home>/projects` the harvest lists itself: sessions run with another
 * `CLAUDE_CONFIG_DIR` than the harvest's, as a night cron starts (no such variable) meets them.
 * Each is named once, by its real path, under the slug folder it was recorded in. A transcript
 * removed since (a temporary config home) is counted and passed over without a warning.
 */
export async function recordedTranscriptsOutside(root: string, context: SourceContext): Promise<SessionFilesBySlugFolder> {
  const log = context.locations.sessionEndLog;
  const byFolder: SessionFilesBySlugFolder = new Map();
  let transcripts: string[];
  try {
    const { records, corruptLineCount } = await readSessionEndLog(log, {
      onCorruptLine: (lineNumber, message) => context.report.corruptLine(log, lineNumber, message),
    });
    if (records.length > 0 || corruptLineCount > 0) context.report.looked(log);
    transcripts = records.flatMap((record) => (record.source === 'claude-code' && record.transcriptPath !== null ? [record.transcriptPath] : []));
  } catch (error) {
    context.locationUnreadable(log, error);
    return byFolder;
  }
  const realRoot = await realpath(root).catch(() => path.resolve(root));
  const outside = [...new Set(transcripts)].filter((file) => isSessionTranscript(file) && !isWithin(file, root) && !isWithin(file, realRoot));
  const realPaths = await Promise.allSettled(outside.map((file) => realpath(file)));
  const seen = new Set<string>();
  for (const [index, file] of outside.entries()) {
    const result = realPaths[index];
    if (result === undefined) continue;
    if (result.status === 'rejected') {
      if (isMissing(result.reason)) context.report.recordedFileGone();
      else context.locationUnreadable(file, result.reason);
      continue;
    }
    const real = result.value;
    if (seen.has(real) || isWithin(real, realRoot)) continue;
    seen.add(real);
    context.report.recordedFileFound();
    const folder = slugFolderOf(file);
    byFolder.set(folder, [...(byFolder.get(folder) ?? []), real]);
  }
  return byFolder;
}
