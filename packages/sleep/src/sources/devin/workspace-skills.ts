import type { Dirent } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isInScope } from '../../harvest/project-scope.js';
import type { HarvestedSession } from '../../harvest/session-record.js';
import type { SourceContext } from '../../harvest/session-source.js';
import { readBoundedText } from './bounded-file.js';
import { contentHash } from './content-hash.js';
import { isMissingFile } from './missing-file.js';

/**
 * The skill files of Devin's workspaces, `<workspace>/.devin/skills/<name>/SKILL.md`: what the
 * developer has taught Devin so far, harvested as one-turn pseudo-sessions of the workspace.
 *
 * The original stamped these "now" and so re-mined each one every night (upstream-sleep §9 item
 * 9). Here a skill's time is its file's mtime, so a window that starts after a night's harvest
 * leaves it unopened until it is edited, and its id hashes its content, so an edited skill is a
 * new session.
 */
export interface SkillFile {
  workspace: string;
  /** The skill's folder name. */
  name: string;
  file: string;
  modified: number;
}

/**
 * The skill files to read, each workspace's found and counted; a workspace outside the scope and
 * a file last written before the window are passed over without opening.
 */
export async function skillFilesToRead(workspaces: readonly string[], context: SourceContext): Promise<SkillFile[]> {
  const { report, scope, window } = context;
  const files: SkillFile[] = [];
  for (const workspace of workspaces) {
    const folder = path.join(workspace, '.devin', 'skills');
    let entries: Dirent[];
    try {
      entries = await readdir(folder, { withFileTypes: true });
    } catch (error) {
      // Most workspaces teach Devin no skills: an absent folder is the common case, not a warning.
      if (!isMissingFile(error)) context.locationUnreadable(folder, error);
      continue;
    }
    report.looked(folder);
    for (const entry of entries.filter((candidate) => candidate.isDirectory())) {
      const file = path.join(folder, entry.name, 'SKILL.md');
      let modified: number;
      try {
        modified = (await stat(file)).mtimeMs;
      } catch (error) {
        if (!isMissingFile(error)) context.locationUnreadable(file, error);
        continue;
      }
      report.fileFound();
      if (!isInScope(scope, workspace)) report.fileSkippedUnopened('outside-scope');
      else if (window.earliestStart !== undefined && modified < window.earliestStart) report.fileSkippedUnopened('outside-window');
      else files.push({ workspace, name: entry.name, file, modified });
    }
  }
  return files;
}

// A skill is a page of instructions; one far larger is not one to learn from.
const MAX_SKILL_BYTES = 1 << 20;

/** One skill file as a pseudo-session, or undefined when too large or skipped by the builder. */
export async function readSkill(skill: SkillFile, context: SourceContext): Promise<HarvestedSession | undefined> {
  const read = await readBoundedText(skill.file, MAX_SKILL_BYTES);
  if (read.kind === 'too-large') {
    context.report.warning(skill.file, `a skill file of ${read.bytes} bytes, over the ${MAX_SKILL_BYTES} this reader holds: not read`);
    context.report.sessionSkipped('over-limit');
    return undefined;
  }
  context.report.fileRead(read.bytesRead);
  const label = skill.name.replace(/[^A-Za-z0-9_.-]/g, '_');
  const builder = context.newSession(`devin-skill-${label}-${contentHash(skill.workspace, read.text)}`, skill.file);
  builder.project(skill.workspace);
  builder.skill(skill.name);
  builder.userPrompt(read.text, skill.modified);
  return builder.finish(skill.modified);
}
