import path from 'node:path';

/**
 * Which projects a harvest reads sessions of. A session belongs to a project when it ran in the
 * project's folder or below it. The original also matched the other way round, so a session
 * started in `$HOME` or `/` — above every project — was harvested for every project
 * (upstream-sleep §9 item 8); here it belongs only to a scope that names that folder itself.
 */
export type ProjectScope = { kind: 'all' } | { kind: 'projects'; projects: readonly string[] };

function normalise(folder: string): string {
  const resolved = path.resolve(folder);
  return resolved.length > 1 && resolved.endsWith(path.sep) ? resolved.slice(0, -1) : resolved;
}

/** A scope of the given folders (made absolute), or of every project when none is given. */
export function projectScope(projects: readonly string[] | 'all'): ProjectScope {
  if (projects === 'all') return { kind: 'all' };
  return { kind: 'projects', projects: [...new Set(projects.map(normalise))] };
}

/** Whether a session that ran in `project` belongs to the scope. A session with no folder belongs only to `all`. */
export function isInScope(scope: ProjectScope, project: string): boolean {
  if (scope.kind === 'all') return true;
  if (project === '' || !path.isAbsolute(project)) return false;
  const folder = normalise(project);
  return scope.projects.some((root) => folder === root || folder.startsWith(root === path.sep ? root : root + path.sep));
}

/** The scope's project that `project` belongs to (the deepest), for per-project checkpoints. */
export function scopeProjectOf(scope: ProjectScope, project: string): string {
  if (scope.kind === 'all' || project === '') return project === '' ? '' : normalise(project);
  const folder = normalise(project);
  const owners = scope.projects.filter((root) => folder === root || folder.startsWith(root === path.sep ? root : root + path.sep));
  return owners.sort((left, right) => right.length - left.length)[0] ?? folder;
}
