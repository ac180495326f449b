/**
 * Claude Code keeps each project's sessions in a folder named after the folder the session ran
 * in, every character that is not a letter or a digit replaced by `-` (`/home/user/project` →
 * `-home-user-project`). The name is lossy (`/a/b-c` and `/a/b/c` share it), so it only ever rules
 * a folder out; the session's own `cwd` decides whether it is in scope.
 */
export function projectSlug(folder: string): string {
  return folder.replace(/[^A-Za-z0-9]/g, '-');
}

// Claude Code shortens names longer than this and appends a hash, so such a name no longer
// tells which folder it stands for.
const LONGEST_FULL_SLUG = 200;

/**
 * Whether the slug folder `name` can hold a session of one of `projects` or of a folder below
 * one: its name is a project's slug, or starts with that slug and `-`.
 */
export function slugFolderMayHold(name: string, projects: readonly string[]): boolean {
  if (name.length >= LONGEST_FULL_SLUG) return true;
  return projects.some((project) => {
    const slug = projectSlug(project);
    // The file-system root's slug is `-`, and every absolute folder's slug starts with it.
    if (slug.length >= LONGEST_FULL_SLUG || slug.replace(/-/g, '') === '') return true;
    return name === slug || name.startsWith(`${slug}-`);
  });
}
