import path from 'node:path';
import { asString, parseJsonObject } from '../json-fields.js';

/**
 * The folder a VS Code workspace storage belongs to, from its `workspace.json`: `folder` is the
 * opened folder's URI; `workspace` the URI of a `.code-workspace` file, whose folder stands for
 * it. Only `file:` URIs name a folder on this machine; a remote one (`vscode-remote:`) does not.
 */

function decodePercent(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/** The local path of a `file:` URI — `/C:/x` as `C:/x`, a UNC host as `//host/…` — or undefined. */
export function fileUriToPath(uri: string): string | undefined {
  const match = /^file:\/\/([^/]*)(\/.*)?$/i.exec(uri.trim());
  if (match === null) return undefined;
  const host = decodePercent(match[1] ?? '');
  const pathname = decodePercent(match[2] ?? '/');
  if (host === undefined || pathname === undefined) return undefined;
  if (host !== '' && host.toLowerCase() !== 'localhost') return `//${host}${pathname}`;
  return /^\/[A-Za-z]:(\/|$)/.test(pathname) ? pathname.slice(1) : pathname;
}

/** The project folder `workspace.json`'s text names, or undefined when it names none here. */
export function workspaceFolderOf(workspaceJson: string): string | undefined {
  const workspace = parseJsonObject(workspaceJson);
  if (workspace === undefined) return undefined;
  const folder = asString(workspace.folder);
  if (folder !== undefined) return fileUriToPath(folder);
  const workspaceFile = asString(workspace.workspace);
  const file = workspaceFile === undefined ? undefined : fileUriToPath(workspaceFile);
  return file === undefined ? undefined : path.posix.dirname(file);
}
