import { readFile, realpath, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import { ApiError, sendBody } from './http-responses.js';

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.jpeg': 'image/jpeg',
  '.gif': 'image/gif',
  '.webp': 'image/webp',
  '.ico': 'image/x-icon',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
};

/**
 * A file of the page's folder (index.html for `/`). Only files inside the folder are served: the
 * path is decoded, resolved and checked to stay inside (after symbolic links too); a folder, a
 * missing file or a path that leaves is 404 — there is no listing, and no fallback page, since the
 * page routes by the URL's hash.
 */
export async function serveStaticFile(folder: string, pathname: string, request: IncomingMessage, response: ServerResponse): Promise<void> {
  const file = await resolveInside(folder, pathname === '/' ? '/index.html' : pathname);
  if (file === undefined) throw new ApiError(404, 'not-found', `no file ${pathname} in the dashboard's page`);
  const body = await readFile(file);
  sendBody(
    request,
    response,
    200,
    { 'Content-Type': CONTENT_TYPES[path.extname(file).toLowerCase()] ?? 'application/octet-stream', 'Cache-Control': 'no-cache' },
    body,
  );
}

async function resolveInside(folder: string, pathname: string): Promise<string | undefined> {
  let relative: string;
  try {
    relative = decodeURIComponent(pathname);
  } catch {
    return undefined;
  }
  if (relative.includes('\0') || relative.includes('\\')) return undefined;
  const root = await realpath(folder);
  const candidate = path.resolve(root, `.${relative}`);
  if (!isInside(root, candidate)) return undefined;
  try {
    const real = await realpath(candidate);
    if (!isInside(root, real) || !(await stat(real)).isFile()) return undefined;
    return real;
  } catch {
    return undefined;
  }
}

function isInside(root: string, candidate: string): boolean {
  return candidate.startsWith(`${root}${path.sep}`);
}
