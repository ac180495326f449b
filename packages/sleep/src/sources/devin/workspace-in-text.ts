/**
 * Which workspace a text names, by its absolute path. The original took the first workspace whose
 * folder *name* appeared anywhere in the first prompt (upstream-sleep §9 item 9), so "api" in
 * "fix the api docs" put a session in `~/work/api`, and two checkouts of one repository were
 * indistinguishable. Here the whole absolute path must appear, as a path: not inside a longer
 * folder name (`/work/app` is not named by `/work/apple`), though a file below it names it.
 */

// Characters that continue a folder name, so a path followed or preceded by one is part of another.
const NAME_CHARACTER = /[\p{L}\p{N}_.~-]/u;

function namesAt(text: string, folder: string, index: number): boolean {
  const before = index === 0 ? '' : text.charAt(index - 1);
  const after = text.charAt(index + folder.length);
  const boundedBefore = before === '' || !(NAME_CHARACTER.test(before) || before === '/' || before === '\\');
  // A full stop after the path ends the sentence, not the folder name ("tests pass in /work/app.").
  const sentenceEnd = after === '.' && /^\s?$/.test(text.charAt(index + folder.length + 1));
  return boundedBefore && (after === '' || sentenceEnd || !NAME_CHARACTER.test(after));
}

function trimSeparator(folder: string): string {
  return folder.length > 1 && /[\\/]$/.test(folder) ? folder.slice(0, -1) : folder;
}

/** The deepest of `workspaces` that `text` names by its absolute path, if any. */
export function deepestWorkspaceIn(text: string, workspaces: readonly string[]): string | undefined {
  let deepest: string | undefined;
  for (const workspace of workspaces) {
    const folder = trimSeparator(workspace);
    if (folder.length <= 1 || (deepest !== undefined && folder.length <= deepest.length)) continue;
    for (let index = text.indexOf(folder); index !== -1; index = text.indexOf(folder, index + 1)) {
      if (namesAt(text, folder, index)) {
        deepest = folder;
        break;
      }
    }
  }
  return deepest;
}
