import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError } from '@skillopt/contract';
import type { SkillInstallation } from './harness-definition.js';
import { pathInsideWorkspace } from './workspace-files.js';

export interface SkillFileOptions {
  /** The file's text for a skill; default the skill itself. (Claude Code's skills want front matter, say.) */
  render?: (skill: string) => string;
}

/**
 * The usual strategy: the skill as one file at `relativePath` in the workspace — `AGENTS.md` for
 * Codex, `CLAUDE.md` or `.claude/skills/<name>/SKILL.md` for Claude Code. A request file already
 * at that path is an error rather than silently overwritten: the env and the harness disagree
 * about that file, and either choice would lose one of them.
 */
export function installSkillAsFile(relativePath: string, options: SkillFileOptions = {}): SkillInstallation {
  return {
    async install(skill, workspace) {
      const target = pathInsideWorkspace(workspace, relativePath);
      await mkdir(path.dirname(target), { recursive: true });
      try {
        await writeFile(target, options.render ? options.render(skill) : skill, { flag: 'wx' });
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
        throw new SkillOptError({
          code: ERROR_CODES.dataInvalid,
          category: 'internal',
          message: `the request's files already contain ${relativePath}, which is where this harness reads its skill: the skill would overwrite it`,
          details: { path: relativePath },
        });
      }
      return [relativePath];
    },
  };
}
