import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { isFileNotFound } from '@skillopt/core';

/** The folders of a project where agent runtimes keep their skills, `<name>/SKILL.md` each. */
export const PROJECT_SKILL_FOLDERS = ['.agents/skills', '.claude/skills', '.cursor/skills', '.devin/skills'] as const;

export type SkillResolution =
  | { status: 'found'; skill: string; path: string }
  | { status: 'missing' | 'ambiguous' | 'rejected'; skill: string; reason: string; candidates: string[] };

async function isDirectory(folder: string): Promise<boolean> {
  try {
    return (await stat(folder)).isDirectory();
  } catch (error) {
    if (isFileNotFound(error)) return false;
    throw error;
  }
}

/**
 * The folders a skill's name is looked for in, those that exist, each once by its real path: the
 * project's own skill folders, Claude Code's user skills, then the roots the user named (relative
 * ones below the project).
 */
export async function skillRoots(options: { project: string; claudeHome?: string | undefined; extraRoots?: readonly string[] | undefined }): Promise<string[]> {
  const candidates = [
    ...PROJECT_SKILL_FOLDERS.map((folder) => path.join(options.project, folder)),
    ...(options.claudeHome === undefined ? [] : [path.join(options.claudeHome, 'skills')]),
    ...(options.extraRoots ?? []).map((root) => path.resolve(options.project, root)),
  ];
  const roots: string[] = [];
  const seen = new Set<string>();
  for (const candidate of candidates) {
    if (!(await isDirectory(candidate))) continue;
    const real = await realpath(candidate);
    if (seen.has(real)) continue;
    seen.add(real);
    roots.push(candidate);
  }
  return roots;
}

/** Why a name cannot be a skill folder's name; undefined when it can. */
function nameProblem(skill: string): string | undefined {
  if (skill.trim() === '' || skill !== skill.trim()) return 'the name is empty or has spaces around it';
  if (skill === '.' || skill === '..' || skill.startsWith('~')) return 'the name is not a folder name';
  if (/[/\\]/.test(skill) || path.isAbsolute(skill)) return 'the name holds a path separator';
  if (/[\u0000-\u001f\u007f]/.test(skill)) return 'the name holds a control character';
  return undefined;
}

/**
 * A skill's live `SKILL.md` from the name a session used it by: exactly one file across the roots,
 * a real file inside its root (a link leading out of the root is refused). Reads no content and
 * writes nothing.
 */
export async function resolveSkill(skill: string, roots: readonly string[]): Promise<SkillResolution> {
  const problem = nameProblem(skill);
  if (problem !== undefined) return { status: 'rejected', skill, reason: problem, candidates: [] };
  const found = new Map<string, string>();
  for (const root of roots) {
    const candidate = path.join(root, skill, 'SKILL.md');
    let real: string;
    try {
      real = await realpath(candidate);
    } catch (error) {
      if (isFileNotFound(error)) continue;
      throw error;
    }
    const realRoot = await realpath(root);
    if (path.relative(realRoot, real).startsWith('..') || !(await stat(real)).isFile()) continue;
    if (!found.has(real)) found.set(real, candidate);
  }
  const candidates = [...found.values()];
  if (candidates.length === 1) return { status: 'found', skill, path: candidates[0] as string };
  if (candidates.length === 0)
    return { status: 'missing', skill, reason: `no ${skill}/SKILL.md in ${roots.length === 0 ? 'any skill folder' : roots.join(', ')}`, candidates };
  return { status: 'ambiguous', skill, reason: `${candidates.length} different files are named ${skill}/SKILL.md: ${candidates.join(', ')}`, candidates };
}
