/**
 * Cursor keeps each workspace's agent transcripts in a folder named after the workspace: its
 * absolute path with every run of characters that are not letters or digits turned into one `-`,
 * and no `-` at either end (`/home/user/project` → `home-user-project`). The name is lossy
 * (`/a/b-c`, `/a/b/c` and `/a/b_c` share it): the workspace's `.workspace-trusted` file, when it
 * is there, names the folder itself.
 */
export function cursorWorkspaceSlug(folder: string): string {
  return folder.replace(/[^A-Za-z0-9]+/g, '-').replace(/^-+|-+$/g, '');
}

/** The scope's project whose slug the folder `name` is, when exactly one is: the only folder of the scope it can stand for. */
export function projectOfSlug(name: string, projects: readonly string[]): string | undefined {
  const matches = projects.filter((project) => cursorWorkspaceSlug(project) === name);
  return matches.length === 1 ? matches[0] : undefined;
}
