import { lstat, readFile, realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { createDataInvalidError } from '@skillopt/env-kit';

/**
 * The document folders and how an item's files are found in them. Every read goes through
 * `readDocumentText`, which resolves the file with `realpath` and refuses anything that does not
 * end up inside the folder it was found in: a symlink to `/etc/passwd` placed in the corpus is
 * refused like a `../` path.
 */

/** Largest document the tools read (bytes); the Treasury Bulletins' parsed text is about 1 MB each. */
export const MAX_DOCUMENT_BYTES = 32 * 1024 * 1024;

/** A tool-level failure: its message goes back to the model as an error result, never as a crash. */
export class DocumentToolError extends Error {
  override readonly name = 'DocumentToolError';
}

/** One of an item's documents: its name as the model sees it, the folder it was found in, and its path there. */
export interface ItemDocument {
  name: string;
  /** The document folder, already resolved with realpath. */
  root: string;
  /** `root` joined with `name` (not yet resolved: it may be a symlink). */
  file: string;
}

async function isDirectory(directory: string): Promise<boolean> {
  try {
    return (await stat(directory)).isDirectory();
  } catch {
    return false;
  }
}

/**
 * The configured document folders that exist, in order, each resolved with realpath; a folder
 * holding a `transformed/` subfolder stands for that subfolder (the original corpus layout:
 * `transformed/*.txt` beside `jsons/*.json`). None existing is a data error naming them all.
 */
export async function resolveDocumentRoots(configured: readonly string[]): Promise<string[]> {
  const roots: string[] = [];
  for (const directory of configured) {
    if (!(await isDirectory(directory))) continue;
    const transformed = path.join(directory, 'transformed');
    const chosen = (await isDirectory(transformed)) ? transformed : directory;
    const resolved = await realpath(chosen);
    if (!roots.includes(resolved)) roots.push(resolved);
  }
  if (roots.length === 0) {
    throw createDataInvalidError(
      configured.length === 0
        ? 'officeqa: no document folder is configured (env.corpus_dir or env.data_dirs)'
        : `officeqa: none of the document folders exists: ${configured.join(', ')}`,
      { configured: [...configured] },
    );
  }
  return roots;
}

async function exists(file: string): Promise<boolean> {
  try {
    await lstat(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Finds each of an item's documents in the first folder that has an entry of that name. A name
 * found in no folder is a data error (the corpus or the config is wrong, and every rollout would
 * fail the same way). Whether the entry is safe to read is checked at each read, not here.
 */
export async function locateItemDocuments(itemId: string, names: readonly string[], roots: readonly string[]): Promise<ItemDocument[]> {
  const documents: ItemDocument[] = [];
  const missing: string[] = [];
  for (const name of names) {
    let found: ItemDocument | undefined;
    for (const root of roots) {
      const file = path.join(root, ...name.split('/'));
      if (await exists(file)) {
        found = { name, root, file };
        break;
      }
    }
    if (found === undefined) missing.push(name);
    else documents.push(found);
  }
  if (missing.length > 0) {
    throw createDataInvalidError(
      `officeqa item ${itemId}: document${missing.length === 1 ? '' : 's'} ${missing.join(', ')} not found in the document folders (${roots.join(', ')})`,
      { id: itemId, missing, roots: [...roots] },
    );
  }
  return documents;
}

/** True when `file` is `root` itself or lies below it (both already resolved). */
function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative === '' || (!relative.startsWith(`..${path.sep}`) && relative !== '..' && !path.isAbsolute(relative));
}

/**
 * The text of one of an item's documents, after checking that its real path (symlinks followed)
 * is a regular file inside its folder and not too large. Refusals are DocumentToolErrors worded
 * for the model; they never include the host path.
 */
export async function readDocumentText(document: ItemDocument): Promise<string> {
  let real: string;
  try {
    real = await realpath(document.file);
  } catch {
    throw new DocumentToolError(`${document.name}: the document cannot be opened (it may be a broken link)`);
  }
  if (!isInside(document.root, real)) {
    throw new DocumentToolError(`${document.name}: refused, it is a link to a file outside the document folder`);
  }
  const info = await stat(real);
  if (!info.isFile()) throw new DocumentToolError(`${document.name}: not a regular file`);
  if (info.size > MAX_DOCUMENT_BYTES) throw new DocumentToolError(`${document.name}: too large to read (${info.size} bytes)`);
  return (await readFile(real, 'utf8')).replace(/^\uFEFF/, '');
}
