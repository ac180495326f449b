/**
 * Pi keeps each working folder's sessions in a folder named after it: the leading separator
 * dropped, every `/`, `\` and `:` turned into `-`, and the whole wrapped in `--` (`/home/user/project`
 * → `--home-user-project--`). The name is lossy (`/a/b-c` and `/a/b/c` share it), so it only ever
 * rules a folder out; the session header's `cwd` decides whether a session is in scope.
 */
export function piSessionFolderSlug(folder: string): string {
  return `--${folder.replace(/^[/\\]/, '').replace(/[/\\:]/g, '-')}--`;
}

/** Whether `name` is shaped as Pi names the folders it makes; any other folder is not Pi's own naming. */
function isSlugShaped(name: string): boolean {
  return name.length > 4 && name.startsWith('--') && name.endsWith('--');
}

/**
 * Whether the folder `name` can hold a session of one of `projects` or of a folder below one. A
 * folder below project `P` is named `--P-…--`, the project's own `--P--`: both start with `--P-`.
 * A folder not named by Pi's rule (a session directory of the developer's choosing) may hold
 * anything, and so may every folder when a project is the file-system root.
 */
export function piFolderMayHold(name: string, projects: readonly string[]): boolean {
  if (!isSlugShaped(name)) return true;
  return projects.some((project) => {
    const slug = piSessionFolderSlug(project);
    if (slug.replace(/-/g, '') === '') return true;
    return name.startsWith(slug.slice(0, -1));
  });
}
