import { mkdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ERROR_CODES, SkillOptError, type WorkspaceFile } from '@skillopt/contract';

/**
 * The path of a workspace-relative file, refusing one that would land outside the workspace. The
 * contract's schema already refuses `..` and absolute paths; this checks the resolved path too,
 * because a skill installation or a harness package may build paths of its own.
 */
export function pathInsideWorkspace(workspace: string, relativePath: string): string {
  const target = path.resolve(workspace, relativePath);
  const relative = path.relative(workspace, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative))
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'internal',
      message: `the workspace file "${relativePath}" would not be inside the workspace ${workspace}`,
    });
  return target;
}

/** Throws unless `workspace` is an existing directory: the caller creates it (the contract's rule). */
export async function requireWorkspaceDirectory(workspace: string): Promise<void> {
  const found = await stat(workspace).catch(() => undefined);
  if (!found?.isDirectory())
    throw new SkillOptError({
      code: ERROR_CODES.dataInvalid,
      category: 'internal',
      message: `the agent run's workspace ${workspace} is not an existing directory: the caller creates it before the run (and removes it after)`,
    });
}

/** Writes the request's files into the workspace, creating their folders. */
export async function writeWorkspaceFiles(workspace: string, files: readonly WorkspaceFile[]): Promise<void> {
  for (const file of files) {
    const target = pathInsideWorkspace(workspace, file.path);
    await mkdir(path.dirname(target), { recursive: true });
    await writeFile(target, file.content);
  }
}
